import Foundation

/// A sign-in as the app's database keeps it: the hash of its token (never the
/// token), who it signs in, what it is for, and when it was made and last used.
public struct SignInRecord: Sendable, Equatable {
    /// What a token is for: a browser's cookie, or a script's `Authorization: Bearer`.
    public enum Kind: String, Sendable {
        case browser
        case script
    }

    /// The token's SHA-256, hex: a database read does not give anyone a way in.
    public let tokenHash: String
    public let identity: Identity
    public let createdAt: Date
    public var lastUsedAt: Date
    public let kind: Kind
    /// A script token's name, as its maker gave it ("deploy script"); nil for a browser's.
    public let name: String?

    public init(tokenHash: String, identity: Identity, createdAt: Date, lastUsedAt: Date, kind: Kind = .browser, name: String? = nil) {
        self.tokenHash = tokenHash
        self.identity = identity
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.kind = kind
        self.name = name
    }

    /// How a token is named where it is listed and revoked: the first 12 hex digits of its hash.
    public var id: String { String(tokenHash.prefix(12)) }
}

/// A script's token as its maker sees it listed: never the token itself.
public struct ScriptToken: Sendable, Equatable, Codable {
    public let id: String
    public let name: String
    public let createdAt: Date
    public let lastUsedAt: Date

    public init(id: String, name: String, createdAt: Date, lastUsedAt: Date) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// Tokens for scripts (`Authorization: Bearer`), made, listed and revoked by a
/// signed-in identity: the server gives this service to factories
/// (`context.services.get((any ScriptTokens).self)`) where the app keeps sign-ins.
public protocol ScriptTokens: Sendable {
    /// A new token for `identity` named `name`: the token itself, shown once, and its id.
    func make(for identity: Identity, name: String) async throws -> (id: String, token: String)
    /// `identity`'s script tokens, newest first.
    func list(for identity: Identity) async throws -> [ScriptToken]
    /// Revokes `identity`'s token `id`; false if it has none of that id.
    func revoke(_ id: String, of identity: Identity) async throws -> Bool
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
    /// Every sign-in of `identity` of `kind`, newest first.
    func list(identity: String, kind: SignInRecord.Kind) async throws -> [SignInRecord]
    /// Calls `handler` (on any thread; it must not block) with each sign-out that
    /// another process sharing this store made: a cluster's nodes forget it at once.
    /// A store that only this process uses (SQLite) never calls it.
    func signedOutElsewhere(_ handler: @escaping @Sendable (SignOut) -> Void)
}

/// A sign-out made by another process sharing the store.
public enum SignOut: Sendable, Equatable {
    /// The sign-in of the token of this hash.
    case token(hash: String)
    /// Every sign-in of this identity ("sign out everywhere").
    case identity(String)
}

extension SignInStore {
    public func signedOutElsewhere(_ handler: @escaping @Sendable (SignOut) -> Void) {}
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
        for session in live.filter({ $0.owner == .identity(identity) }) { disposeSession(session) }
    }
}
