import Bindery
import CSodium
import Foundation
import GRDB

/// Accounts with passwords, kept by an `AccountStore` (the app's SQLite file:
/// `init(database:)`, table `bindery_account`; a cluster's PostgreSQL:
/// `PostgresAccountStore`): an opt-in product, so an app without accounts
/// links none of it. Passwords are
/// hashed with Argon2id by libsodium (`crypto_pwhash_str`, its interactive
/// limits: 64 MiB and a few hundred milliseconds a hash, on a queue of its own,
/// one at a time, never a session's thread), and checked by libsodium, in
/// constant time. Failed sign-ins are limited per account and per client
/// (`AccountsPolicy`): past the limit, `tooManyAttempts` with the seconds to wait.
/// The limits are counted by this process: a cluster of n nodes allows up to n
/// times as many. An unknown login costs what a wrong password costs, and says the same.
///
/// ```swift
/// let accounts = try Accounts(database: database)
/// let identity = try await accounts.signIn(login: form.login, password: form.password, client: context.client)
/// BrowserSignIn.take()?.signIn(as: identity)   // in the input's turn, taken before the await
/// ```
public final class Accounts: Sendable {
    public let policy: AccountsPolicy
    private let store: any AccountStore
    private let failures: FailedAttempts
    /// Hashing is slow and large on purpose: one at a time, here.
    private let hashing = DispatchQueue(label: "bindery.accounts.hash")
    /// What an unknown login's password is checked against, so that it takes as long as a known one's.
    private let decoy: String

    /// The accounts kept in `store`, under `policy`; `now` is the clock the limits read (tests move it).
    public init(store: any AccountStore, policy: AccountsPolicy = AccountsPolicy(), now: @escaping @Sendable () -> Date = Date.init) throws {
        precondition(sodium_init() >= 0, "libsodium could not start")
        self.store = store
        self.policy = policy
        failures = FailedAttempts(policy: policy, now: now)
        decoy = try Self.hash(UUID().uuidString)
    }

    /// The accounts in the SQLite `database` (their table made or brought up to date).
    public convenience init(database: any DatabaseWriter, policy: AccountsPolicy = AccountsPolicy(), now: @escaping @Sendable () -> Date = Date.init)
        throws
    {
        try self.init(store: SQLiteAccountStore(database: database), policy: policy, now: now)
    }

    /// A login as it is kept and compared: trimmed, lower case, Unicode-composed.
    public static func normalized(_ login: String) -> String {
        login.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping.lowercased()
    }

    /// Makes an account for `login` with `password`; its identity (`Identity(id,
    /// attributes: ["login": login])`). Throws `AccountError` for a login that is not
    /// one, a password the policy refuses, or a login taken.
    public func register(login: String, password: String) async throws -> Identity {
        let login = Self.normalized(login)
        try policy.check(login: login, password: password)
        let hash = try await onHashingQueue { try Self.hash(password) }
        let id = UUID().uuidString.lowercased()
        let added = try await stored { try await self.store.insert(AccountRecord(id: id, login: login, passwordHash: hash, createdAt: Date())) }
        guard added else { throw AccountError.loginTaken }
        return Identity(id, attributes: ["login": login])
    }

    /// The identity of `login` if `password` is its password. A wrong password and an
    /// unknown login are both `wrongLoginOrPassword`, found in the same time; past the
    /// policy's failures for the account or for `client`, `tooManyAttempts`, before any check.
    public func signIn(login: String, password: String, client: String?) async throws -> Identity {
        let login = Self.normalized(login)
        if let wait = failures.wait(account: login, client: client) { throw AccountError.tooManyAttempts(retryAfter: wait) }
        let account = try await stored { try await self.store.find(login: login) }
        let hash = account?.passwordHash ?? decoy
        let matches = try await onHashingQueue { Self.verify(password, hash) }
        guard matches, let account else {
            failures.record(account: login, client: client)
            throw AccountError.wrongLoginOrPassword
        }
        failures.clear(account: login)
        return Identity(account.id, attributes: ["login": login])
    }

    /// Changes the password of the account `identity` signs in, given its current one.
    public func changePassword(of identity: Identity, from old: String, to new: String, client: String?) async throws {
        guard let login = identity.attributes["login"] else { throw AccountError.wrongLoginOrPassword }
        _ = try await signIn(login: login, password: old, client: client)
        try policy.check(login: login, password: new)
        let hash = try await onHashingQueue { try Self.hash(new) }
        try await stored { try await self.store.setPasswordHash(hash, ofAccount: identity.id) }
    }

    /// Sets the password of the account `identity` signs in, without its current one:
    /// for a page only its signed-in owner reaches (RealWorld's settings), or a reset
    /// flow that has proven who asks. The policy's rules apply.
    public func setPassword(of identity: Identity, to new: String) async throws {
        try policy.check(login: identity.attributes["login"] ?? "unknown", password: new)
        let hash = try await onHashingQueue { try Self.hash(new) }
        try await stored { try await self.store.setPasswordHash(hash, ofAccount: identity.id) }
    }

    /// libsodium's Argon2id string (`$argon2id$v=19$m=65536,t=2,p=1$…`), its salt inside.
    static func hash(_ password: String) throws -> String {
        var out = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        // utf8CString ends with a NUL, so it has an address even for "".
        let result = password.utf8CString.withUnsafeBufferPointer { chars in
            crypto_pwhash_str(
                &out, chars.baseAddress!, UInt64(chars.count - 1), UInt64(crypto_pwhash_OPSLIMIT_INTERACTIVE), Int(crypto_pwhash_MEMLIMIT_INTERACTIVE))
        }
        guard result == 0 else { throw BinderyError(.viewModelFailed, "a password could not be hashed (out of memory)") }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` is the one `stored` was hashed from (libsodium compares in constant time).
    static func verify(_ password: String, _ stored: String) -> Bool {
        password.utf8CString.withUnsafeBufferPointer { chars in crypto_pwhash_str_verify(stored, chars.baseAddress!, UInt64(chars.count - 1)) == 0 }
    }

    private func onHashingQueue<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            hashing.async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// The store's work, its failure as the input's answer (the database's words for the log only).
    private func stored<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch {
            throw BinderyError.accountsFailure(error)
        }
    }
}

/// What accounts refuse, in words a page may show: none says whether an account exists.
public enum AccountError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidLogin(String)
    case weakPassword(String)
    case loginTaken
    case wrongLoginOrPassword
    case tooManyAttempts(retryAfter: Int)

    public var description: String {
        switch self {
        case .invalidLogin(let why), .weakPassword(let why): why
        case .loginTaken: "that login cannot be used; choose another"
        case .wrongLoginOrPassword: "wrong login or password"
        case .tooManyAttempts(let seconds): "too many failed attempts; try again in \(seconds) s"
        }
    }

    /// The input's answer for it, where it should be one: 429 with `Retry-After` for too many attempts.
    public var binderyError: BinderyError? {
        guard case .tooManyAttempts(let seconds) = self else { return nil }
        var error = BinderyError(.tooManyAttempts, description)
        error.retryAfter = seconds
        return error
    }
}

/// What accounts accept and how many failed sign-ins they allow.
public struct AccountsPolicy: Sendable {
    public var minimumPasswordLength = 8
    public var maximumPasswordLength = 1_024
    /// Failed sign-ins one account may have in `failureWindow` before it waits.
    public var failuresPerAccount = 5
    /// Failed sign-ins one client address may have in `failureWindow` (across accounts).
    public var failuresPerClient = 20
    public var failureWindow: TimeInterval = 15 * 60

    public init() {}

    func check(login: String, password: String) throws {
        guard (3...64).contains(login.count), !login.contains(where: { $0.isWhitespace && $0 != " " }),
            login.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
        else { throw AccountError.invalidLogin("a login is 3 to 64 characters") }
        guard password.count >= minimumPasswordLength else {
            throw AccountError.weakPassword("a password is at least \(minimumPasswordLength) characters")
        }
        guard password.utf8.count <= maximumPasswordLength else {
            throw AccountError.weakPassword("a password is at most \(maximumPasswordLength) bytes")
        }
    }
}

/// Failed sign-ins in the last window, per account and per client. Thread-safe.
final class FailedAttempts: Sendable {
    private let policy: AccountsPolicy
    private let now: @Sendable () -> Date
    private let times = Locked<(accounts: [String: [Date]], clients: [String: [Date]])>(([:], [:]))

    init(policy: AccountsPolicy, now: @escaping @Sendable () -> Date) {
        self.policy = policy
        self.now = now
    }

    /// Seconds until `account` and `client` may try again, or nil if they may now.
    func wait(account: String, client: String?) -> Int? {
        let now = now()
        return times.withLock { times in
            let window = policy.failureWindow
            func waitFor(_ list: [Date], limit: Int) -> TimeInterval? {
                let recent = list.filter { now.timeIntervalSince($0) < window }
                guard recent.count >= limit, let oldest = recent.min() else { return nil }
                return window - now.timeIntervalSince(oldest)
            }
            let waits = [
                waitFor(times.accounts[account] ?? [], limit: policy.failuresPerAccount),
                client.flatMap { waitFor(times.clients[$0] ?? [], limit: policy.failuresPerClient) },
            ].compactMap { $0 }
            return waits.max().map { max(1, Int($0.rounded(.up))) }
        }
    }

    func record(account: String, client: String?) {
        let now = now()
        times.withLock { times in
            let window = policy.failureWindow
            times.accounts[account, default: []] = (times.accounts[account] ?? []).filter { now.timeIntervalSince($0) < window } + [now]
            if let client { times.clients[client, default: []] = (times.clients[client] ?? []).filter { now.timeIntervalSince($0) < window } + [now] }
            // Bounded: past many accounts, those without a recent failure go.
            if times.accounts.count > 100_000 { times.accounts = times.accounts.filter { $0.value.contains { now.timeIntervalSince($0) < window } } }
            if times.clients.count > 100_000 { times.clients = times.clients.filter { $0.value.contains { now.timeIntervalSince($0) < window } } }
        }
    }

    func clear(account: String) {
        _ = times.withLock { $0.accounts.removeValue(forKey: account) }
    }
}

extension BinderyError {
    /// An accounts database failure as the input's answer: the database's words for the log only.
    static func accountsFailure(_ error: Error) -> BinderyError {
        if let error = error as? BinderyError { return error }
        return BinderyError(.databaseUnavailable, "the accounts cannot be reached now", cause: "\(error)")
    }
}
