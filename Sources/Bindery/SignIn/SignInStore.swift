import Foundation

/// A browser's sign-in as the app's database keeps it: the hash of its token
/// (never the token), who it signs in, and when it was made and last used.
public struct SignInRecord: Sendable, Equatable {
    /// The token's SHA-256, hex: a database read does not give anyone a way in.
    public let tokenHash: String
    public let identity: Identity
    public let createdAt: Date
    public var lastUsedAt: Date

    public init(tokenHash: String, identity: Identity, createdAt: Date, lastUsedAt: Date) {
        self.tokenHash = tokenHash
        self.identity = identity
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// Where the app keeps its browsers' sign-ins (`BinderyDatabase`: the app's SQLite
/// file). Each call is one transaction, durable when it returns; a failure throws
/// (`BinderyError` `database_unavailable` or `storage_full`, as any write's).
public protocol SignInStore: Sendable {
    func insert(_ record: SignInRecord) async throws
    /// The sign-in of `tokenHash`, if there is one.
    func find(tokenHash: String) async throws -> SignInRecord?
    /// Records a use (best effort: a lost one only shortens the idle limit's view of it).
    func touch(tokenHash: String, at: Date) async throws
    func delete(tokenHash: String) async throws
    /// Deletes every sign-in of `identity`; the hashes it deleted.
    func deleteAll(identity: String) async throws -> [String]
    /// Deletes the sign-ins made before `createdBefore` or last used before `usedBefore`.
    func deleteExpired(createdBefore: Date, usedBefore: Date) async throws
}

extension Application {
    /// Keeps the browsers' sign-ins (`BrowserSignIn`) in `store`: the server then
    /// signs browsers in and out as inputs ask, and knows who a browser is by its
    /// sign-in cookie.
    public func keepSignIns(in store: any SignInStore) {
        signInStore.withLock { $0 = store }
    }

    /// Where sign-ins are kept, if the app keeps them.
    package var signIns: (any SignInStore)? { signInStore.withLock { $0 } }

    /// Ends every live session owned by `identity` (signed out everywhere): their
    /// streams end (`bindery.end`) and their stored state goes.
    package func disposeSessions(ownedBy identity: String) {
        for session in liveSessions(where: { $0.owner == .identity(identity) }) { disposeSession(session) }
    }
}
