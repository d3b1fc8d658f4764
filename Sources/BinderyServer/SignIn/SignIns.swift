import Bindery
import CSodium
import Foundation

/// The server's side of browsers' sign-ins (`BrowserSignIn`): a random token in
/// an `HttpOnly` cookie, its SHA-256 kept in the app's database (`SignInStore`)
/// with who it signs in, an absolute and an idle lifetime, and the answers'
/// `Set-Cookie` headers. A token is 32 random bytes from libsodium, in
/// base64url (43 characters); a request's token is looked up by its hash, so a
/// stolen database row signs nobody in.
///
/// A lookup is remembered for `recheckAfter` (a busy page does not read the
/// database on every input); a sign-out on this server forgets it at once.
///
/// Thread safety: every method may be called from any thread.
final class SignIns: ScriptTokens, Sendable {
    let store: any SignInStore
    /// How long a sign-in lasts from its making, used or not.
    let lifetime: Duration
    /// How long a sign-in lasts unused.
    let idleLimit: Duration
    /// How long a script's token lasts from its making (no idle limit: a nightly job is idle all day).
    let scriptLifetime: Duration
    private let remembered = Locked<[String: (record: SignInRecord, checked: ContinuousClock.Instant)]>([:])
    /// How long a lookup is trusted before the database is asked again.
    static let recheckAfter: Duration = .seconds(5)

    /// The cookie's name over plain HTTP, and over HTTPS (`__Host-`: Secure, Path=/, no Domain).
    static let cookieName = "bindery_signin"
    static let secureCookieName = "__Host-bindery_signin"

    init(store: any SignInStore, lifetime: Duration, idleLimit: Duration, scriptLifetime: Duration = .seconds(365 * 24 * 3600)) {
        precondition(sodium_init() >= 0, "libsodium could not start")
        self.store = store
        self.lifetime = lifetime
        self.idleLimit = idleLimit
        self.scriptLifetime = scriptLifetime
    }

    /// A new token: 32 random bytes, base64url without padding.
    static func makeToken() -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        randombytes_buf(&bytes, bytes.count)
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Whether `token` has the form of one this server makes.
    static func isValid(_ token: String) -> Bool {
        token.utf8.count == 43 && token.utf8.allSatisfy { URLSafeName.allows($0) }
    }

    /// SHA-256 of `token`, hex.
    static func hash(_ token: String) -> String {
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        let bytes = Array(token.utf8)
        crypto_hash_sha256(&digest, bytes, UInt64(bytes.count))
        return digest.map { String(format: "%02x", $0) }.joined()
    }

    /// Who `token` signs in, if it is a sign-in of `kind` (a browser's cookie, a script's
    /// bearer token) that has not expired; its use is recorded.
    func identity(for token: String, kind: SignInRecord.Kind = .browser, now: Date = Date()) async throws -> Identity? {
        guard Self.isValid(token) else { return nil }
        let hash = Self.hash(token)
        if let known = remembered.withLock({ $0[hash] }), ContinuousClock.now - known.checked < Self.recheckAfter {
            return known.record.kind == kind && isLive(known.record, now: now) ? known.record.identity : nil
        }
        guard let record = try await store.find(tokenHash: hash), record.kind == kind, isLive(record, now: now) else {
            _ = remembered.withLock { $0.removeValue(forKey: hash) }
            return nil
        }
        remembered.withLock { table in
            // Bounded: a table past its size starts over (each entry is only a shortcut).
            if table.count > 10_000 { table.removeAll() }
            table[hash] = (record, .now)
        }
        // At most one write a minute per sign-in for its idle limit.
        if now.timeIntervalSince(record.lastUsedAt) > 60 { try? await store.touch(tokenHash: hash, at: now) }
        return record.identity
    }

    private func isLive(_ record: SignInRecord, now: Date) -> Bool {
        if record.kind == .script { return now.timeIntervalSince(record.createdAt) < scriptLifetime.seconds }
        return now.timeIntervalSince(record.createdAt) < lifetime.seconds && now.timeIntervalSince(record.lastUsedAt) < idleLimit.seconds
    }

    // MARK: Scripts' tokens

    func make(for identity: Identity, name: String) async throws -> (id: String, token: String) {
        let token = Self.makeToken()
        let now = Date()
        let record = SignInRecord(tokenHash: Self.hash(token), identity: identity, createdAt: now, lastUsedAt: now, kind: .script, name: name)
        try await store.insert(record)
        return (record.id, token)
    }

    func list(for identity: Identity) async throws -> [ScriptToken] {
        try await store.list(identity: identity.id, kind: .script).map { record in
            ScriptToken(id: record.id, name: record.name ?? "", createdAt: record.createdAt, lastUsedAt: record.lastUsedAt)
        }
    }

    func revoke(_ id: String, of identity: Identity) async throws -> Bool {
        guard let record = try await store.list(identity: identity.id, kind: .script).first(where: { $0.id == id }) else { return false }
        _ = remembered.withLock { $0.removeValue(forKey: record.tokenHash) }
        try await store.delete(tokenHash: record.tokenHash)
        return true
    }

    /// Signs a browser in as `identity`: a new token, stored before it is given out; the
    /// browser's token before it (`replacing`), if any, is deleted (no fixation).
    func signIn(_ identity: Identity, replacing old: String?, now: Date = Date()) async throws -> String {
        let token = Self.makeToken()
        try await store.insert(SignInRecord(tokenHash: Self.hash(token), identity: identity, createdAt: now, lastUsedAt: now))
        if let old, Self.isValid(old) { try await signOut(old) }
        return token
    }

    /// Deletes `token`'s sign-in.
    func signOut(_ token: String) async throws {
        let hash = Self.hash(token)
        _ = remembered.withLock { $0.removeValue(forKey: hash) }
        try await store.delete(tokenHash: hash)
    }

    /// Deletes every sign-in of `identity`.
    func signOutEverywhere(_ identity: String) async throws {
        let hashes = try await store.deleteAll(identity: identity)
        forget(.identity(identity), hashes: hashes)
    }

    /// Forgets the lookups `signOut` ended (made here, or by another process sharing the store).
    func forget(_ signOut: SignOut, hashes: [String] = []) {
        remembered.withLock { table in
            for hash in hashes { table.removeValue(forKey: hash) }
            switch signOut {
            case .token(let hash): table.removeValue(forKey: hash)
            case .identity(let identity):
                for (hash, entry) in table where entry.record.identity.id == identity { table.removeValue(forKey: hash) }
            }
        }
    }

    /// The `Set-Cookie` giving a browser `token` (`secure`: the browser came over HTTPS).
    func cookie(_ token: String, secure: Bool) -> (String, String) {
        let name = secure ? Self.secureCookieName : Self.cookieName
        return ("Set-Cookie", "\(name)=\(token); Path=/; Max-Age=\(Int(lifetime.seconds)); HttpOnly; SameSite=Lax" + (secure ? "; Secure" : ""))
    }

    /// The `Set-Cookie` that removes a browser's sign-in cookie.
    static func expiredCookie(secure: Bool) -> (String, String) {
        let name = secure ? secureCookieName : cookieName
        return ("Set-Cookie", "\(name)=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : ""))
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var seconds: TimeInterval { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
