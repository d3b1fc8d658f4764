import Foundation

/// One setting of a Bindery app: a command-line option `--<name>`, the
/// environment variable `BINDERY_<NAME>` (and any others it lists), and the
/// line `--help` prints for it.
public struct ServeOption: Sendable {
    /// The option's name: `--<name>` on the command line.
    public let name: String
    /// The environment variables it is read from, the first set one winning.
    public let environment: [String]
    /// What the value is (`<port>`); nil for a flag, which takes no value.
    public let placeholder: String?
    /// One line of help.
    public let help: String
    let apply: @Sendable (inout ServerConfiguration, String) throws -> Void
    let current: @Sendable (ServerConfiguration) -> String
}
