import Bindery
import Foundation
import GRDB
import XCTest

@testable import BinderyAccounts

/// Accounts with passwords on a real SQLite database and libsodium's Argon2id: what is
/// kept, what is refused and in which words, and the failed-attempt limits at their
/// edge with a clock moved by hand.
final class AccountsTests: XCTestCase {
    private let clock = Locked(Date(timeIntervalSince1970: 1_800_000_000))

    private func accounts(_ configure: (inout AccountsPolicy) -> Void = { _ in }) throws -> (Accounts, DatabaseQueue) {
        var policy = AccountsPolicy()
        configure(&policy)
        let database = try DatabaseQueue()
        let now: @Sendable () -> Date = { [clock] in clock.withLock { $0 } }
        return (try Accounts(database: database, policy: policy, now: now), database)
    }

    private func advance(_ seconds: TimeInterval) { clock.withLock { $0 = $0.addingTimeInterval(seconds) } }

    private func refusal(_ work: () async throws -> Identity) async -> AccountError? {
        do {
            _ = try await work()
            return nil
        } catch {
            return error as? AccountError
        }
    }

    func testAPasswordIsKeptAsArgon2idAndChecked() async throws {
        let (accounts, database) = try accounts()
        let ada = try await accounts.register(login: "  Ada@Example.org ", password: "correct horse")
        XCTAssertEqual(ada.attributes["login"], "ada@example.org")
        let stored = try await database.read { db in try String.fetchAll(db, sql: "SELECT password_hash FROM bindery_account") }
        XCTAssertEqual(stored.count, 1)
        XCTAssertTrue(stored[0].hasPrefix("$argon2id$v=19$m=65536,t=2,p=1$"), stored[0])
        XCTAssertFalse(stored[0].contains("correct horse"))

        let again = try await accounts.signIn(login: "ADA@example.org", password: "correct horse", client: "10.0.0.1")
        XCTAssertEqual(again, ada)
        let wrong = await refusal { try await accounts.signIn(login: "ada@example.org", password: "correct horsE", client: nil) }
        let unknown = await refusal { try await accounts.signIn(login: "nobody@example.org", password: "correct horse", client: nil) }
        XCTAssertEqual(wrong, .wrongLoginOrPassword)
        XCTAssertEqual(unknown, wrong, "an unknown login says what a wrong password says")
    }

    func testWhatARegistrationMayNotBe() async throws {
        let (accounts, _) = try accounts()
        _ = try await accounts.register(login: "grace", password: "12345678")
        let taken = await refusal { try await accounts.register(login: " GRACE", password: "another one") }
        XCTAssertEqual(taken, .loginTaken)
        let short = await refusal { try await accounts.register(login: "hopper", password: "1234567") }
        XCTAssertEqual(short, .weakPassword("a password is at least 8 characters"))
        let long = await refusal { try await accounts.register(login: "hopper", password: String(repeating: "x", count: 1_025)) }
        XCTAssertEqual(long, .weakPassword("a password is at most 1024 bytes"))
        for login in ["ab", String(repeating: "a", count: 65), "tab\there", "nul\u{0}"] {
            let bad = await refusal { try await accounts.register(login: login, password: "12345678") }
            XCTAssertEqual(bad, .invalidLogin("a login is 3 to 64 characters"), login)
        }
        XCTAssertEqual(AccountError.loginTaken.description, "that login cannot be used; choose another")
    }

    func testFailedSignInsAreLimitedPerAccountAndPerClientAtTheirEdge() async throws {
        let (accounts, _) = try accounts {
            $0.failuresPerAccount = 3
            $0.failuresPerClient = 5
            $0.failureWindow = 600
        }
        _ = try await accounts.register(login: "ada", password: "correct horse")
        for _ in 0..<2 {
            let wrong = await refusal { try await accounts.signIn(login: "ada", password: "nope nope", client: "10.0.0.1") }
            XCTAssertEqual(wrong, .wrongLoginOrPassword)
        }
        advance(100)
        let third = await refusal { try await accounts.signIn(login: "ada", password: "nope nope", client: "10.0.0.2") }
        XCTAssertEqual(third, .wrongLoginOrPassword, "the third failure is still checked")
        // Past three in the window, even the right password waits, from any client, until the first leaves it.
        let blocked = await refusal { try await accounts.signIn(login: "ada", password: "correct horse", client: "10.0.0.3") }
        XCTAssertEqual(blocked, .tooManyAttempts(retryAfter: 500))
        XCTAssertEqual(blocked?.binderyError?.retryAfter, 500)
        advance(499)
        let stillBlocked = await refusal { try await accounts.signIn(login: "ada", password: "correct horse", client: "10.0.0.3") }
        XCTAssertEqual(stillBlocked, .tooManyAttempts(retryAfter: 1))
        advance(1)
        let ada = try await accounts.signIn(login: "ada", password: "correct horse", client: "10.0.0.3")
        XCTAssertEqual(ada.attributes["login"], "ada", "one failure left the window: it may try")

        // One client trying many accounts: five failures, then it waits, whoever it names.
        for name in ["b1", "b2", "b3", "b4", "b5"] {
            let wrong = await refusal { try await accounts.signIn(login: name, password: "whatever!", client: "10.9.9.9") }
            XCTAssertEqual(wrong, .wrongLoginOrPassword, name)
        }
        let sixth = await refusal { try await accounts.signIn(login: "ada", password: "correct horse", client: "10.9.9.9") }
        XCTAssertEqual(sixth, .tooManyAttempts(retryAfter: 600))
        let elsewhere = try await accounts.signIn(login: "ada", password: "correct horse", client: "10.0.0.4")
        XCTAssertEqual(elsewhere.attributes["login"], "ada", "another client is not held back")
    }

    func testChangingAPasswordNeedsTheCurrentOne() async throws {
        let (accounts, _) = try accounts()
        let ada = try await accounts.register(login: "ada", password: "correct horse")
        do {
            try await accounts.changePassword(of: ada, from: "wrong one", to: "battery staple", client: nil)
            XCTFail("changed without the current password")
        } catch {
            XCTAssertEqual(error as? AccountError, .wrongLoginOrPassword)
        }
        try await accounts.changePassword(of: ada, from: "correct horse", to: "battery staple", client: nil)
        let old = await refusal { try await accounts.signIn(login: "ada", password: "correct horse", client: nil) }
        XCTAssertEqual(old, .wrongLoginOrPassword)
        let new = try await accounts.signIn(login: "ada", password: "battery staple", client: nil)
        XCTAssertEqual(new, ada)
    }
}
