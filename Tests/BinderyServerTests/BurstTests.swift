import Bindery
import BinderyLoopback
import Foundation
import XCTest

/// The reconnect burst after a deploy: many streams at once on a busy shared session.
final class BurstTests: XCTestCase {
    /// One shared ViewModel whose signal ticks every 10 ms.
    final class TickViewModel {
        let tick: Signal<Int>
        init() {
            tick = Observable<Int>.interval(.milliseconds(10), scheduler: ConcurrentDispatchQueueScheduler(qos: .default))
                .asSignal(onErrorSignalWith: .empty())
        }
    }

    func testAThousandStreamsConnectingAtOnceToATickingSessionAllGetEventsAndTheAPIKeepsAnswering() throws {
        ProcessStats.raiseFileLimit()
        let streams = 1_000
        let server = try TestServer {
            $0.maxStreams = streams + 10
            $0.runtime.maxStreamsPerSession = streams + 10
            $0.maxConnectionsPerClient = streams + 10  // every stream comes from 127.0.0.1
        }
        server.server.application.register("tick", shared: true) { _ in TickViewModel() }
        let id = try server.createSession("tick")
        let threadsBefore = ProcessStats.current.threads

        let swarm = try StreamSwarm(port: server.port, path: "/api/tick/\(id)/events", count: streams)
        // While the burst is being served, the API must keep answering.
        let apiAnswered = expectation(description: "GET /api and POST /api/simple answer during the burst")
        let apiStatuses = Locked<[Int]>([])
        Thread {
            let client = HTTPClient(port: server.port)
            for status in [
                (try? client.get("/api"))?.status, (try? client.post("/api/simple"))?.status,
                (try? client.get("/api/tick/\(id)"))?.status,
            ] {
                apiStatuses.withLock { $0.append(status ?? -1) }
            }
            apiAnswered.fulfill()
        }.start()

        var mostThreads = 0
        // Five events prove a stream live; later ones are left unread (slow readers, for the server).
        let everyStreamLive = swarm.run(timeout: 30, reading: { $0.events < 5 }) { swarm in
            mostThreads = max(mostThreads, ProcessStats.current.threads)
            return swarm.streams.allSatisfy { $0.events >= 5 }
        }
        wait(for: [apiAnswered], timeout: 20)
        let live = swarm.streams.filter { $0.events >= 5 }.count
        XCTAssertTrue(
            everyStreamLive,
            """
            \(live) of \(streams) streams received 5 events in 30 s; statuses \(Set(swarm.streams.map { $0.status ?? -1 })); \
            the server has \(server.server.openConnections) connections and \(server.server.openStreams) streams
            """)
        XCTAssertEqual(apiStatuses.withLock { $0 }, [200, 201, 200])
        // This test's own threads are few (one poller, one API client); the server's must stay bounded too.
        XCTAssertLessThanOrEqual(mostThreads - threadsBefore, 16, "threads grew from \(threadsBefore) to \(mostThreads) during the burst")
        swarm.closeAll()
    }
}
