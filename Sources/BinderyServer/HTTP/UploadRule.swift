/// An input that takes a file (`Upload`): how large, and of which media types
/// (`app.upload("avatar", of: "settings", maxBytes: 2_000_000, contentTypes: ["image/png", "image/jpeg"])`).
public struct UploadRule: Sendable, Equatable {
    /// The ViewModel and its input.
    public let viewModel: String
    public let input: String
    /// The largest file taken; larger gets 413, before or while it arrives.
    public let maxBytes: Int
    /// The media types taken (`image/png`, or `image/*` for a family); empty: any.
    public let contentTypes: [String]

    public init(viewModel: String, input: String, maxBytes: Int, contentTypes: [String] = []) {
        precondition(maxBytes > 0, "an upload's maxBytes is at least 1")
        self.viewModel = viewModel
        self.input = input
        self.maxBytes = maxBytes
        self.contentTypes = contentTypes.map { $0.lowercased() }
    }

    /// Whether a file of media type `type` (parameters ignored) is taken.
    func allows(_ type: String) -> Bool {
        guard !contentTypes.isEmpty else { return true }
        let media = UploadRule.mediaType(type)
        return contentTypes.contains { allowed in
            allowed == media || (allowed.hasSuffix("/*") && media.hasPrefix(allowed.dropLast()))
        }
    }

    /// `image/png` of `Image/PNG; name=x`.
    static func mediaType(_ contentType: String) -> String {
        (contentType.split(separator: ";").first.map(String.init) ?? "").trimmingCharacters(in: .whitespaces).lowercased()
    }
}
