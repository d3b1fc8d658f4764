/// Which Bindery this is: what `--version` prints.
public enum BinderyVersion {
    /// The release, `major.minor.patch`.
    public static let number = "0.5.1"
    /// The HTTP protocol it serves (`/api`, `/_bindery/v1/…`): see docs/protocol.md.
    public static let protocolVersion = 1

    /// `<command> (Bindery <number>, protocol v<n>)`.
    public static func line(command: String) -> String {
        "\(command) (Bindery \(number), protocol v\(protocolVersion))"
    }
}
