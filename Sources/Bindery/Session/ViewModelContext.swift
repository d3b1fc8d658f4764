import Foundation

/// What a ViewModel factory gets: the session's creation parameters, and who asked.
public struct ViewModelContext: Sendable {
    /// The new session's id.
    public let sessionID: String
    /// Who asked for the session, if the app authenticates requests; nil for anonymous requests.
    public let identity: Identity?
    /// The creation body as sent (empty if none).
    public let parameters: Data
    /// The application's services: the database and whatever else the app registered.
    public let services: Services
    /// The address of the client that created the session (behind a trusted proxy, the one
    /// it names), if known: what per-client limits count by (an account's failed sign-ins).
    public let client: String?

    /// A context for session `sessionID` (tests make their own).
    public init(
        sessionID: String, parameters: Data = Data(), services: Services = Services(), identity: Identity? = nil, client: String? = nil
    ) {
        self.sessionID = sessionID
        self.identity = identity
        self.parameters = parameters
        self.services = services
        self.client = client
    }

    /// Creation parameters are a JSON object, `null` or nothing: anything else
    /// is refused before a session exists, naming the problem.
    static func validate(_ parameters: Data) throws {
        guard parameters.contains(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) else { return }
        guard let value = try? JSONSerialization.jsonObject(with: parameters, options: [.fragmentsAllowed]) else {
            throw BinderyError(.malformedJSON, "the creation parameters are not valid JSON")
        }
        guard value is [String: Any] || value is NSNull else {
            throw BinderyError(.invalidPayload, "the creation parameters must be a JSON object (or null, or no body)")
        }
    }

    /// Who asks, or 401 `unauthenticated` for a ViewModel that is only for a signed-in
    /// identity: `let me = try context.requireIdentity()` in the factory.
    public func requireIdentity() throws -> Identity {
        guard let identity else { throw BinderyError(.unauthenticated, "sign in first: this ViewModel is for a signed-in identity") }
        return identity
    }

    /// The identity, if one is signed in and `allows` accepts it: else `unauthenticated`
    /// (401) without one, `forbidden` (403) for one it refuses ("is this the article's author").
    public func requireIdentity(where allows: (Identity) throws -> Bool) throws -> Identity {
        let identity = try requireIdentity()
        guard try allows(identity) else { throw BinderyError(.forbidden, "this ViewModel is not for this identity") }
        return identity
    }

    /// Decodes the creation parameters as `T`; throws a client-facing error on a mismatch.
    public func parameters<T: Decodable>(as type: T.Type) throws -> T {
        do {
            return try JSONDecoder.bindery.decode(T.self, from: Self.isAbsent(parameters) ? Data("{}".utf8) : parameters)
        } catch let error as DecodingError {
            throw BinderyError(.invalidPayload, "creation parameters: " + Payload.explain(error))
        }
    }

    /// No body, only whitespace, or `null`: decoded as `{}` so optional fields default.
    private static func isAbsent(_ parameters: Data) -> Bool {
        let text = String(decoding: parameters, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty || text == "null"
    }
}
