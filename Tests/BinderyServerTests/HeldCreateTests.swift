import Bindery
import BinderyLoopback
import Foundation
import XCTest

/// A create is answered once its ViewModel's bind has what it started reading
/// (`AnswerHold`), over HTTP: a read that fails fails the create, with its
/// status and none of the database's text, and leaves no session.
final class HeldCreateTests: XCTestCase {
    /// Reads in its bind, on another thread; the read fails or brings `loaded`.
    final class Loading {
        let loaded: Driver<Int>
        init(failing: Bool) {
            let value = BehaviorRelay(value: 0)
            loaded = value.asDriver()
            let hold = AnswerHold.take()
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
                if failing {
                    hold?.release(
                        failing: BinderyError(.databaseUnavailable, "the list could not be read", cause: "SQLite error 14: unable to open database file"))
                } else {
                    value.accept(42)
                    hold?.release()
                }
            }
        }
    }

    func testACreateWhoseBindsReadFailsIsAnsweredItsFailureAndLeavesNoSession() throws {
        let server = try TestServer(register: {
            $0.register("loads") { _ in Loading(failing: false) }
            $0.register("fails") { _ in Loading(failing: true) }
        })
        let made = try server.client.post("/api/loads")
        XCTAssertEqual(made.status, 201, made.text)
        XCTAssertEqual(try made.json()["outputs"].flatMap { ($0 as? [String: Any])?["loaded"] as? Int }, 42, "made with what its bind read: \(made.text)")

        let sessions = server.server.application.sessionCount
        let refused = try server.client.post("/api/fails")
        try assertError(refused, 503, "database_unavailable")
        XCTAssertNotNil(refused.header("Retry-After"))
        XCTAssertFalse(refused.text.contains("SQLite"), refused.text)
        XCTAssertEqual(server.server.application.sessionCount, sessions, "the failed session is gone")
    }
}
