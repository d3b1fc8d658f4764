import Foundation

/// Which requests are uploads and where their files go: a `POST` to an input an
/// `UploadRule` names, with a body that is not JSON. Its body streams to a file
/// in `directory` (`UploadFile`), within the rule's size and types.
struct UploadReceiving: Sendable {
    /// The rules by `<viewModel>/<input>`.
    private let rules: [String: UploadRule]
    /// The rules with their names' bytes, for `rule(forPath:)`, which runs on every `POST`.
    /// Every rule's `/api/<vm>/` and `/inputs/<input>`, one after the other, and where each
    /// is in it: plain values, so that looking through them retains nothing.
    private let names: [UInt8]
    private let spans: [(head: Range<Int>, tail: Range<Int>)]
    private let ordered: [UploadRule]
    /// Where files arrive: the configured folder, or one of this server's own.
    let directory: URL

    init(rules: [UploadRule], directory: URL) {
        // The first rule of an input wins: a configuration's own over an app's (`BinderyApp.upload`, added after).
        self.rules = Dictionary(rules.map { ("\($0.viewModel)/\($0.input)", $0) }) { first, _ in first }
        self.directory = directory
        var names: [UInt8] = []
        var spans: [(head: Range<Int>, tail: Range<Int>)] = []
        ordered = Array(self.rules.values)
        for rule in ordered {
            let head = names.count..<names.count + "/api/\(rule.viewModel)/".utf8.count
            names += "/api/\(rule.viewModel)/".utf8
            let tail = names.count..<names.count + "/inputs/\(rule.input)".utf8.count
            names += "/inputs/\(rule.input)".utf8
            spans.append((head, tail))
        }
        self.names = names
        self.spans = spans
    }

    var isEmpty: Bool { rules.isEmpty }

    /// The rule of the input `path` names (`/api/<vm>/<sid>/inputs/<input>`), if it takes uploads.
    func rule(for path: String) -> UploadRule? {
        path.withCString { rule(forPath: $0) }
    }

    /// `rule(for:)` of libmicrohttpd's path, read in place: every `POST` asks, so it
    /// allocates nothing and compares bytes: a path that does not end with a rule's
    /// `/inputs/<input>` costs a few dozen instructions.
    func rule(forPath path: UnsafePointer<CChar>) -> UploadRule? {
        let length = strlen(path)
        let found = names.withUnsafeBufferPointer { names -> Int? in
            spans.withUnsafeBufferPointer { spans -> Int? in
                for (index, span) in spans.enumerated() {
                    let head = span.head.count, tail = span.tail.count
                    // /api/<vm>/ + a session id (one segment) + /inputs/<input>
                    guard length > head + tail, memcmp(path + (length - tail), names.baseAddress! + span.tail.lowerBound, tail) == 0,
                        memcmp(path, names.baseAddress! + span.head.lowerBound, head) == 0
                    else { continue }
                    let id = UnsafeBufferPointer(start: UnsafeRawPointer(path + head).assumingMemoryBound(to: UInt8.self), count: length - head - tail)
                    if !id.contains(UInt8(ascii: "/")) { return index }
                }
                return nil
            }
        }
        return found.map { ordered[$0] }
    }

    static func isJSON(_ contentType: String) -> Bool {
        let media = UploadRule.mediaType(contentType)
        return media == "application/json" || media.hasSuffix("+json")
    }

    func tooLarge(_ rule: UploadRule) -> HTTPError {
        HTTPError(status: 413, code: "body_too_large", message: "\(rule.input) takes a file of at most \(rule.maxBytes) bytes")
    }

    /// 413 for the input `path` names, once its body went over its rule's size.
    func tooLarge(_ path: String) -> HTTPError {
        rule(for: path).map(tooLarge) ?? HTTPError(status: 413, code: "body_too_large", message: "the file is too large")
    }

    static func wrongType(_ type: String, _ rule: UploadRule) -> HTTPError {
        HTTPError(
            status: 415, code: "unsupported_media_type",
            message: "\(rule.input) takes \(rule.contentTypes.joined(separator: ", ")), not \(UploadRule.mediaType(type))")
    }

    /// The answer when a file could not be written (`errno`): a full disk is 507, as for
    /// any durable write, to be tried again later; anything else the server's failure.
    static func failed(_ error: Int32?) -> HTTPError {
        if error == ENOSPC || error == EDQUOT {
            return HTTPError(
                status: 507, code: "storage_full", message: "the server has no room for the file now",
                headers: [("Retry-After", String(HTTPError.storageRetrySeconds))])
        }
        return HTTPError(status: 500, code: "upload_failed", message: "the server could not store the file")
    }
}
