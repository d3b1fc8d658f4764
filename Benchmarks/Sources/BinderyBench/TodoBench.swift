import ArgumentParser
import BinderyLoopback
import Foundation
import Synchronization

/// `bindery-bench todo`: what durability costs. The same server, in one run:
/// the in-memory `simple` example against the todo list on its SQLite file
/// (WAL, `synchronous = FULL`, a commit per input before it is answered).
struct TodoBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todo",
        abstract: "Inputs/s and input → event round trips: the durable todo list against the in-memory example."
    )

    @Option(help: "Round trips to time for each ViewModel.")
    var roundTrips = 500

    @Option(help: "Clients sending inputs at once in the throughput phase.")
    var clients = 8

    @Option(help: "Seconds of each throughput phase.")
    var seconds = 5.0

    @Option(help: "The SQLite file (removed afterwards); default: a new one in the temporary folder.")
    var database: String?

    func run() throws {
        let path = database ?? FileManager.default.temporaryDirectory.appendingPathComponent("bench-todo-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let child = try ChildServer(extraArguments: ["--database", path])
        defer { child.stop() }
        let client = HTTPClient(port: child.port)
        print("bindery-bench todo — \(roundTrips) round trips, \(clients) clients × \(seconds) s per ViewModel, database \(path)")
        print("machine: \(machineDescription())")

        let simple = try created(client.post("/api/simple"))
        let todos = try created(client.post("/api/todos", json: #"{"list": "bench"}"#))
        // One item for the throughput phase to toggle.
        _ = try client.post("/api/todos/\(todos)/inputs/add", json: #""first""#)

        let simpleTrips = try roundTrips(port: child.port, path: "/api/simple/\(simple)", input: "buttonTap", body: nil, until: "buttonTitle")
        let todoTrips = try roundTrips(port: child.port, path: "/api/todos/\(todos)", input: "add", body: #""milk""#, until: "items")
        let simpleRate = throughput(port: child.port, path: "/api/simple/\(simple)/inputs/buttonTap", body: nil)
        let todoRate = throughput(port: child.port, path: "/api/todos/\(todos)/inputs/toggle", body: "1")

        printTable(
            "input → its event on an open stream (p50 / p90 / p99)",
            [
                ("simple, in memory (buttonTap)", simpleTrips.summary),
                ("todos, durable (add)", todoTrips.summary),
                ("ratio at p50", String(format: "%.2f×", todoTrips.percentile(50) / simpleTrips.percentile(50))),
            ])
        printTable(
            "inputs/s, \(clients) clients, a connection per input (p50 / p90 / p99)",
            [
                ("simple, in memory (buttonTap)", String(format: "%.0f/s, ", simpleRate.rate) + simpleRate.latency.summary),
                ("todos, durable (toggle)", String(format: "%.0f/s, ", todoRate.rate) + todoRate.latency.summary),
                ("ratio", String(format: "%.2f× the in-memory rate", todoRate.rate / simpleRate.rate)),
            ])
    }

    private func created(_ response: HTTPResponse) throws -> String {
        guard response.status == 201, let id = try response.json()["id"] as? String else {
            throw ValidationError("create answered \(response.status): \(response.text)")
        }
        return id
    }

    /// Times `roundTrips` inputs from their send to event `until` on a stream of the same session.
    private func roundTrips(port: UInt16, path: String, input: String, body: String?, until event: String) throws -> Samples {
        let stream = try SSEClient(port: port, path: "\(path)/events")
        // The snapshot first: everything that comes before a quiet 0.3 s.
        do { while try stream.next(timeout: 0.3) != nil {} } catch {}
        let client = HTTPClient(port: port)
        var samples = Samples()
        for _ in 0..<roundTrips {
            let start = now()
            let response = try client.post("\(path)/inputs/\(input)", json: body)
            guard response.status == 200 else { throw ValidationError("\(input) answered \(response.status): \(response.text)") }
            while let next = try stream.next(timeout: 5), next.event != event {}
            samples.add(now() - start)
        }
        return samples
    }

    /// Inputs to `path` from `clients` threads for `seconds`: the rate and each input's latency.
    private func throughput(port: UInt16, path: String, body: String?) -> (rate: Double, latency: Samples) {
        let all = Gathered()
        let group = DispatchGroup()
        let start = now()
        for _ in 0..<clients {
            group.enter()
            Thread {
                var own = Samples()
                let client = HTTPClient(port: port)
                while now() - start < seconds {
                    let sent = now()
                    guard let response = try? client.post(path, json: body), response.status == 200 else { break }
                    own.add(now() - sent)
                }
                all.samples.withLock { all in for value in own.values { all.add(value) } }
                group.leave()
            }.start()
        }
        group.wait()
        let samples = all.samples.withLock { $0 }
        return (Double(samples.values.count) / (now() - start), samples)
    }
}

/// The client threads' samples, each thread's added as it finishes.
private final class Gathered: Sendable {
    let samples = Mutex(Samples())
}
