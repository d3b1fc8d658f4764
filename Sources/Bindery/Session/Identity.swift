/// Who is asking, as the app's authentication said (`BinderyApp.authenticate`):
/// it reaches the ViewModel factory (`ViewModelContext.identity`), and a
/// session made for an identity is reachable by that identity only.
public struct Identity: Hashable, Sendable {
    /// What tells one user from another (a user id, an email): sessions are bound to it.
    public let id: String
    /// Anything else the app's authentication knows and its ViewModels may use (a name, roles).
    public let attributes: [String: String]

    /// The identity `id`, with `attributes`.
    public init(_ id: String, attributes: [String: String] = [:]) {
        self.id = id
        self.attributes = attributes
    }
}
