import Foundation

/// What a ViewModel factory gets: the session's creation parameters.
public struct ViewModelContext: Sendable {
    /// The new session's id.
    public let sessionID: String
    /// The creation body as sent (empty if none).
    public let parameters: Data

    /// Decodes the creation parameters as `T`; throws a client-facing error on a mismatch.
    public func parameters<T: Decodable>(as type: T.Type) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: parameters.isEmpty ? Data("{}".utf8) : parameters)
        } catch let error as DecodingError {
            throw BinderyError(.invalidPayload, "creation parameters: " + Payload.explain(error))
        }
    }
}
