import Bindery
import BinderyLoopback
import Foundation
import Logging
import XCTest

@testable import BinderyAccounts
@testable import BinderyPostgres

/// Sign-ins and accounts in a real PostgreSQL, as a cluster's nodes share them:
/// two nodes' stores in one database, what one keeps the other finds, and what
/// one signs out the other hears of at once; accounts registered through one
/// node sign in through another.
final class PostgresSignInTests: XCTestCase {
    private let logger = Logger(label: "test")

    /// A node's store, listening on a change log of its own (as `joinCluster` makes them).
    private func node(_ name: String, _ url: String) throws -> (PostgresSignInStore, ChangeLog) {
        let changes = try ChangeLog(url: url, logger: logger)
        let store = try PostgresSignInStore(url: url, node: name, listeningWith: changes)
        changes.start()
        addTeardownBlock { changes.stop() }
        XCTAssertTrue(eventually { changes.isConnected }, "node \(name) listens")
        return (store, changes)
    }

    func testWhatOneNodeKeepsAnotherFindsAndItsSignOutsAreHeardThere() async throws {
        let url = try TestPostgres.freshDatabase()
        let (a, _) = try node("a", url)
        let (b, _) = try node("b", url)
        let heard = Locked<[SignOut]>([])
        b.signedOutElsewhere { signOut in heard.withLock { $0.append(signOut) } }
        a.signedOutElsewhere { _ in XCTFail("a node does not hear its own sign-outs") }

        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let ada = Identity("ada-id", attributes: ["login": "ada"])
        try await a.insert(SignInRecord(tokenHash: "h1", identity: ada, createdAt: now, lastUsedAt: now))
        try await a.insert(SignInRecord(tokenHash: "h2", identity: ada, createdAt: now, lastUsedAt: now, kind: .script, name: "nightly"))
        let found = try await b.find(tokenHash: "h1")
        XCTAssertEqual(found, SignInRecord(tokenHash: "h1", identity: ada, createdAt: now, lastUsedAt: now))
        let scripts = try await b.list(identity: "ada-id", kind: .script)
        XCTAssertEqual(scripts.map(\.name), ["nightly"])
        try await b.touch(tokenHash: "h1", at: now.addingTimeInterval(60))
        let touched = try await a.find(tokenHash: "h1")
        XCTAssertEqual(touched?.lastUsedAt, now.addingTimeInterval(60))

        try await a.delete(tokenHash: "h1")
        let gone = try await b.find(tokenHash: "h1")
        XCTAssertNil(gone)
        let deleted = try await a.deleteAll(identity: "ada-id")
        XCTAssertEqual(deleted, ["h2"])
        let heardBoth = await eventually { () async in heard.withLock { $0.count } == 2 }
        XCTAssertTrue(heardBoth, "\(heard.withLock { $0 })")
        XCTAssertEqual(heard.withLock { $0 }, [.token(hash: "h1"), .identity("ada-id")])

        try await a.insert(SignInRecord(tokenHash: "old", identity: ada, createdAt: now, lastUsedAt: now))
        try await a.insert(SignInRecord(tokenHash: "idle", identity: ada, createdAt: now.addingTimeInterval(100), lastUsedAt: now))
        try await a.insert(SignInRecord(tokenHash: "live", identity: ada, createdAt: now.addingTimeInterval(100), lastUsedAt: now.addingTimeInterval(100)))
        try await b.deleteExpired(createdBefore: now.addingTimeInterval(50), usedBefore: now.addingTimeInterval(50))
        let left = try await a.list(identity: "ada-id", kind: .browser)
        XCTAssertEqual(left.map(\.tokenHash), ["live"])
    }

    func testAnAccountRegisteredThroughOneNodeSignsInThroughAnother() async throws {
        let url = try TestPostgres.freshDatabase()
        let first = try Accounts(store: PostgresAccountStore(url: url)), second = try Accounts(store: PostgresAccountStore(url: url))
        let ada = try await first.register(login: "Ada", password: "correct horse")
        let again = try await second.signIn(login: "ada", password: "correct horse", client: nil)
        XCTAssertEqual(again, ada)
        do {
            _ = try await second.register(login: "ADA ", password: "another horse")
            XCTFail("a login taken on another node is taken")
        } catch {
            XCTAssertEqual(error as? AccountError, .loginTaken)
        }
        try await second.changePassword(of: ada, from: "correct horse", to: "battery staple", client: nil)
        let changed = try await first.signIn(login: "ada", password: "battery staple", client: nil)
        XCTAssertEqual(changed, ada)
    }
}
