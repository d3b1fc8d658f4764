import BinderyRx
import Foundation
import XCTest

@testable import Bindery

/// The application's side of a cluster's shared sessions (`SharedSessionRuntime`), with a
/// host of the test's own that answers as `PostgresSharedSessions` does, and as it might
/// in a race: with the id of a replica it has since replaced.
final class SharedSessionRuntimeTests: XCTestCase {
    final class Board {
        let notes = BehaviorRelay(value: ["first"]).asDriver()
    }

    /// Answers with the id it is told, or with its replica's (made on first ask).
    final class Host: SharedSessionHost {
        nonisolated(unsafe) weak var runtime: (any SharedSessionRuntime)?  // set once, before the first ask
        let answering = Locked<String?>(nil)
        let replica = Locked<(any ReplicaSession)?>(nil)

        func replica(of viewModel: String, completion: @escaping @Sendable (Result<String, BinderyError>) -> Void) {
            if let id = answering.withLock({ $0 }) { return completion(.success(id)) }
            do {
                let made = try replica.withLock { replica in
                    if let replica { return replica }
                    let made = try runtime!.addReplica(viewModel, id: "replica-of-\(viewModel)") { _, _, completion in
                        completion(.failure(BinderyError(.storeUnavailable, "no owner in this test")))
                    }
                    replica = made
                    return made
                }
                completion(.success(made.id))
            } catch {
                completion(.failure(error as? BinderyError ?? BinderyError(.limitReached, "\(error)")))
            }
        }
    }

    private var application: Application!
    private let host = Host()

    override func setUp() {
        application = Application()
        application.register("board", shared: true) { _ in Board() }
        host.runtime = application
        application.hostSharedSessions(host)
    }

    override func tearDown() { application.stop() }

    func testARequestForASharedViewModelGetsTheReplicaTheHostNamesAndAReplacedOneIsServedNoMore() async throws {
        let session = try await application.createSession("board")
        XCTAssertEqual(session.id, "replica-of-board")
        let first = try XCTUnwrap(host.replica.withLock { $0 })
        XCTAssertTrue(first === session)
        XCTAssertTrue(application.serves(first))
        XCTAssertTrue(application.isShared("board"))

        let second = try application.addReplica("board", id: "replica-of-board") { _, _, _ in }
        XCTAssertFalse(application.serves(first), "replaced under its id")
        XCTAssertTrue(application.serves(second))
        XCTAssertEqual(application.sessionCount, 1)
    }

    func testAReplicaTheApplicationNoLongerHoldsIsAnsweredTryAgain() async throws {
        host.answering.withLock { $0 = "replaced-meanwhile" }
        do {
            _ = try await application.createSession("board")
            XCTFail("a session the application does not hold was served")
        } catch let error as BinderyError {
            XCTAssertEqual(error.code, .storeUnavailable)
            XCTAssertTrue(error.message.contains("try again"), error.message)
        }
        XCTAssertEqual(application.sessionCount, 0)
    }
}
