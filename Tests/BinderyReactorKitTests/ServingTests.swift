import BinderyDatabase
import Foundation
import XCTest

@testable import Bindery
@testable import BinderyReactorKit

/// A reactor served like a ViewModel: actions in, its state's fields out, its state kept.
final class ServingTests: XCTestCase {
    /// A reactor as ReactorKit's README writes one, with a pulse and payload cases.
    final class Counter: Reactor {
        enum Action {
            case increase
            case add(Int)
            case move(Int, Int)
            case reset
        }
        enum Mutation {
            case change(Int)
            case set(Int)
            case alert(String)
        }
        struct State: Codable {
            var value = 0
            var label = "zero"
            @Pulse var alert: String?
        }
        let initialState = State()

        func mutate(action: Action) -> Observable<Mutation> {
            switch action {
            case .increase: return .just(.change(1))
            case .add(let amount): return amount < 0 ? .just(.alert("no negative amounts")) : .just(.change(amount))
            case .move(let from, let to): return .just(.change(to - from))
            case .reset: return .just(.set(0))
            }
        }

        func reduce(state: State, mutation: Mutation) -> State {
            var state = state
            switch mutation {
            case .change(let delta): state.value += delta
            case .set(let value): state.value = value
            case .alert(let text): state.alert = text
            }
            state.label = state.value == 0 ? "zero" : "\(state.value)"
            return state
        }
    }

    /// Every action a case without payload; the state one value.
    final class Toggle: Reactor {
        enum Action: CaseIterable { case flip, clear }
        let initialState = false
        func reduce(state: Bool, mutation: Action) -> Bool { mutation == .flip ? !state : false }
    }

    private var store: SessionStore!

    override func setUpWithError() throws {
        store = try SQLiteSessionStore(database: try BinderyDatabase.inMemory())
    }

    private func application() -> Application {
        let application = Application()
        application.keepSessions(in: store)
        application.register(
            "counter",
            actions: [.send(.increase), .send(Counter.Action.add), .send(Counter.Action.move), .send(.reset, as: "zero")]
        ) { _ in Counter() }
        application.register("toggle") { _ in Toggle() }
        return application
    }

    private func outputs(_ snapshot: Snapshot) -> [String: String] {
        Dictionary(uniqueKeysWithValues: snapshot.outputs.map { ($0.name, String(decoding: $0.json, as: UTF8.self)) })
    }

    func testActionsAreInputsAndTheStateFieldsOutputs() async throws {
        let application = application()
        defer { application.stop() }
        let catalog = await application.catalog()
        let counter = try XCTUnwrap(catalog.viewModels.first { $0.name == "counter" })
        XCTAssertNil(counter.problem)
        XCTAssertEqual(counter.inputs.map(\.name), ["increase", "add", "move", "zero"])
        XCTAssertEqual(counter.inputs.map(\.schema)[1], ["type": "integer"])
        XCTAssertEqual(counter.outputs.map(\.name), ["value", "label", "alert"])
        XCTAssertEqual(counter.outputs.map(\.kind), [.driver, .driver, .signal])
        let toggle = try XCTUnwrap(catalog.viewModels.first { $0.name == "toggle" })
        XCTAssertEqual(toggle.inputs.map(\.name), ["flip", "clear"])
        XCTAssertEqual(toggle.outputs.map(\.name), ["state"])

        let session = try await application.createSession("counter")
        let initial = try await session.snapshot()
        XCTAssertEqual(outputs(initial), ["value": "0", "label": "\"zero\""])
        _ = try await session.send(input: "increase", payload: Data())
        let added = try await session.send(input: "add", payload: Data("5".utf8))
        XCTAssertEqual(outputs(added), ["value": "6", "label": "\"6\""])
        let moved = try await session.send(input: "move", payload: Data("[2, 5]".utf8))
        XCTAssertEqual(outputs(moved)["value"], "9")
        let zero = try await session.send(input: "zero", payload: Data())
        XCTAssertEqual(outputs(zero)["value"], "0")
        do {
            _ = try await session.send(input: "add", payload: Data("\"five\"".utf8))
            XCTFail("a string is no amount")
        } catch {
            XCTAssertEqual((error as? BinderyError)?.code, .invalidPayload)
        }
        let flips = try await application.createSession("toggle")
        let flipped = try await flips.send(input: "flip", payload: Data())
        XCTAssertEqual(outputs(flipped), ["state": "true"])
    }

    /// A driver field is sent when it changes; a pulse on each assignment, an equal one too.
    func testAFieldIsSentWhenItChangesAndAPulseOnEachAssignment() async throws {
        let application = application()
        defer { application.stop() }
        let session = try await application.createSession("counter")
        let before = try await session.snapshot().lastEventID
        _ = try await session.send(input: "add", payload: Data("-1".utf8))
        _ = try await session.send(input: "add", payload: Data("-1".utf8))
        _ = try await session.send(input: "add", payload: Data("0".utf8))
        let after = try await session.snapshot().lastEventID
        // Two alerts (equal, each sent), and no value or label: adding 0 changes neither.
        XCTAssertEqual(after - before, 2)
    }

    func testACodableStateOutlivesItsApplication() async throws {
        let first = application()
        let session = try await first.createSession("counter")
        _ = try await session.send(input: "add", payload: Data("41".utf8))
        _ = try await session.send(input: "add", payload: Data("-1".utf8))
        first.stop()

        let second = application()
        defer { second.stop() }
        let again = try await awaitResult { second.findSession("counter", id: session.id, completion: $0) }
        let restored = try await again.snapshot()
        XCTAssertEqual(outputs(restored), ["value": "41", "label": "\"41\""])
        XCTAssertEqual(second.rebuiltSessionCount, 1)
        let next = try await again.send(input: "increase", payload: Data())
        XCTAssertEqual(outputs(next)["value"], "42", "the reactor goes on from its kept state")
    }

    func testASessionThatEndsReleasesItsReactorsStorage() async throws {
        let application = Application()
        defer { application.stop() }
        // The table is every reactor's: other tests' reactors come and go (and are swept) meanwhile,
        // so this one's entry is looked at, not the table's size.
        let made = Locked<Toggle?>(nil)
        application.register("toggle") { _ in
            let toggle = Toggle()
            made.withLock { $0 = toggle }
            return toggle
        }
        let session = try await application.createSession("toggle")
        let toggle = try XCTUnwrap(made.withLock { $0 })
        XCTAssertTrue(ReactorStorageTable.shared.holds(toggle))
        application.disposeSession(session)
        let deadline = ContinuousClock.now + .seconds(5)
        while ReactorStorageTable.shared.holds(toggle), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertFalse(ReactorStorageTable.shared.holds(toggle), "dropped with the session, not at a later sweep (the reactor is still alive)")
    }
}
