import Bindery
import BinderyRxTest
import Foundation
import XCTest

/// Drives a ViewModel by its input and output names and makes the test account
/// for every output it causes, in the spirit of the Composable Architecture's
/// `TestStore`: `receive` each value in order; anything left unreceived when the
/// store finishes (or is released) fails the test, listing what was missed.
///
/// Synchronous effects of an input are delivered before `send` returns, and
/// so is what work the input holds its answer for (`AnswerHold`) delivers
/// before releasing it: `send` waits for the release, as a session waits to
/// answer. The ViewModel is made and bound as if in an input's turn too, and
/// its outputs are read once what its `bind` started and holds is done: the
/// first values received are what a page's first paint shows. Time (services' latency, debounce, delay) runs
/// on `scheduler`, moved by `advance`.
///
/// What arrives later from elsewhere (a store another user wrote to, from
/// another thread) is received too: `receive` waits for it, at most
/// `holdLimit` seconds, when nothing is there yet.
///
/// Thread safety: use from the test's thread only; the ViewModel may emit from any.
public final class ViewModelTestStore {
    /// Virtual time for the ViewModel's services and time operators.
    public let scheduler: TestScheduler
    private var ports: ViewModelPorts!
    private let sharing: InlineScheduler
    private var subscription: Disposable?
    /// What was received and not yet asserted; guarded by `arrived`.
    private var received: [(name: String, json: Data, time: TestTime)] = []
    private let arrived = NSCondition()
    private let fail: (String, StaticString, UInt) -> Void

    /// A store for the ViewModel `make` creates, with its drivers and signals
    /// delivered inline and its time on `scheduler`.
    ///
    /// - Parameters:
    ///   - scheduler: Virtual time; pass it to the ViewModel's services.
    ///   - outputs: Subject properties that are outputs, as at registration.
    ///   - fail: How a failed expectation is reported (`XCTFail` by default).
    ///   - make: Creates the ViewModel.
    public init(
        scheduler: TestScheduler = TestScheduler(initialClock: 0),
        outputs: [String: OutputKind] = [:],
        fail: @escaping (String, StaticString, UInt) -> Void = { message, file, line in XCTFail(message, file: file, line: line) },
        make: (TestScheduler) throws -> Any
    ) throws {
        self.scheduler = scheduler
        self.fail = fail
        sharing = InlineScheduler(time: scheduler)
        var ports: ViewModelPorts?
        var failure: Error?
        // Made as a session makes it, its start held as an input's answer is: what
        // `bind` starts and holds (a first read) is done before its outputs are
        // read, so the first values received are what a page's first paint shows.
        let released = applyAsInput(timeoutSeconds: Self.holdLimit) {
            do {
                try SharingScheduler.mock(scheduler: sharing) {
                    ports = try ViewModelPorts(try make(scheduler), declaredOutputs: outputs)
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        self.ports = ports
        subscription = try self.ports.subscribe { [unowned self] name, _, value in
            let json: Data =
                switch value {
                case .json(let json): json
                case .viewModel(let viewModel): Data("{\"viewModel\":\"\(type(of: viewModel))\"}".utf8)
                // A keyed list is asserted whole, as a client that applies its changes sees it.
                case .changing(let value): (try? value.fullJSON()) ?? Data("null".utf8)
                }
            arrived.withLock {
                received.append((name, json, scheduler.clock))
                arrived.broadcast()
            }
        }
        if !released { fail("what the ViewModel's bind held was still held after \(Self.holdLimit) s", #filePath, #line) }
    }

    /// A store for a ViewModel that takes its inputs in `init` (a tuple of
    /// sequences, as RxExample's): the store makes them, one input per label.
    public convenience init<Input>(
        scheduler: TestScheduler = TestScheduler(initialClock: 0),
        outputs: [String: OutputKind] = [:],
        fail: @escaping (String, StaticString, UInt) -> Void = { message, file, line in XCTFail(message, file: file, line: line) },
        make: (TestScheduler, Input) throws -> Any
    ) throws {
        try self.init(scheduler: scheduler, outputs: outputs, fail: fail) { scheduler in
            try ViewModelPorts.givingInputs { (input: Input) in try make(scheduler, input) }
        }
    }

    deinit {
        finish()
        subscription?.dispose()
    }

    /// Sends input `name` with no payload (a `Void` input).
    public func send(_ name: String, file: StaticString = #filePath, line: UInt = #line) {
        deliver(name, payload: Data(), file: file, line: line)
    }

    /// Sends input `name` with `json` as its payload, as a client sends it (a test a
    /// development server wrote from a session: `GET /api/<vm>/<sid>/test.swift`).
    public func send(_ name: String, json: String, file: StaticString = #filePath, line: UInt = #line) {
        deliver(name, payload: Data(json.utf8), file: file, line: line)
    }

    /// Asserts that the next output value is the JSON `json` on output `name` (compared as JSON).
    public func receive(_ name: String, json: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)) else {
            return fail("the expected value of '\(name)' is not JSON: \(json)", file, line)
        }
        receive(name, value, file: file, line: line)
    }

    /// Sends input `name` with `payload`, encoded as a client would send it.
    public func send<Payload: Encodable>(_ name: String, _ payload: Payload, file: StaticString = #filePath, line: UInt = #line) {
        guard let data = try? JSONEncoder().encode(payload) else {
            return fail("cannot encode the payload of '\(name)'", file, line)
        }
        deliver(name, payload: data, file: file, line: line)
    }

    private func deliver(_ name: String, payload: Data, file: StaticString, line: UInt) {
        var failure: Error?
        let released = applyAsInput(timeoutSeconds: Self.holdLimit) {
            do {
                try ports.send(name, payload: payload)
            } catch {
                failure = error
            }
        }
        if let failure { fail("sending '\(name)' failed: \(failure)", file, line) }
        if !released { fail("the answer to '\(name)' was still held after \(Self.holdLimit) s", file, line) }
    }

    /// How long `send` waits for the work an input holds its answer for, in seconds.
    static let holdLimit = 10

    /// Moves virtual time forward by `ticks`, running what falls due.
    public func advance(by ticks: TestTime) {
        scheduler.advanceTo(scheduler.clock + ticks)
    }

    /// Asserts that the next output value is `value` on output `name`.
    public func receive<Value: Encodable>(_ name: String, _ value: Value, file: StaticString = #filePath, line: UInt = #line) {
        guard let expected = try? Self.encoder.encode(value) else {
            return fail("cannot encode the expected value of '\(name)'", file, line)
        }
        let deadline = Date().addingTimeInterval(TimeInterval(Self.holdLimit))
        let next = arrived.withLock { () -> (name: String, json: Data, time: TestTime)? in
            while received.isEmpty, arrived.wait(until: deadline) {}
            return received.isEmpty ? nil : received.removeFirst()
        }
        guard let next else {
            return fail("expected \(name) = \(Self.text(expected)), but nothing more was received", file, line)
        }
        if next.name != name || Self.canonical(next.json) != Self.canonical(expected) {
            fail(
                """
                received something else (−expected, +received):
                − \(name) = \(Self.text(expected))
                + \(next.name) = \(Self.text(next.json)) at \(next.time)
                """, file, line)
        }
    }

    /// Asserts that the next output value is a `Void` signal on `name`.
    public func receive(_ name: String, file: StaticString = #filePath, line: UInt = #line) {
        receive(name, Optional<Int>.none, file: file, line: line)
    }

    /// Drops what was received but not yet asserted (for tests that do not care).
    public func skipReceived() { arrived.withLock { received = [] } }

    /// Fails if any output value was not received: in the middle of a test,
    /// that nothing has arrived yet; called again when the store is released.
    public func finish(file: StaticString = #filePath, line: UInt = #line) {
        let pending = arrived.withLock {
            defer { received = [] }
            return received
        }
        guard !pending.isEmpty else { return }
        let missed = pending.map { "  \($0.name) = \(Self.text($0.json)) at \($0.time)" }.joined(separator: "\n")
        fail("the ViewModel emitted values the test did not receive:\n\(missed)", file, line)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private static func canonical(_ json: Data) -> Data {
        guard let object = try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed]),
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        else { return json }
        return data
    }

    private static func text(_ json: Data) -> String { String(decoding: json, as: UTF8.self) }
}

/// Runs scheduled work inline (trampolined, in order) and delegates timed work
/// to the test scheduler: drivers deliver before `send` returns, time stays virtual.
/// Work scheduled from several threads runs one at a time, as on a session's
/// turn: a thread that finds another running leaves its work to it.
public final class InlineScheduler: SchedulerType, @unchecked Sendable {
    private let time: TestScheduler
    /// Guards `queue` and `isRunning`.
    private let lock = NSLock()
    private var queue: [() -> Void] = []
    private var isRunning = false

    /// Inline work, with timed work on `time`.
    public init(time: TestScheduler) { self.time = time }

    public var now: RxTime { time.now }

    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        let runs = lock.withLock { () -> Bool in
            queue.append {
                guard !cancel.isDisposed else { return }
                cancel.setDisposable(action(state))
            }
            guard !isRunning else { return false }
            isRunning = true
            return true
        }
        guard runs else { return cancel }
        while let next = lock.withLock({ () -> (() -> Void)? in
            guard !queue.isEmpty else {
                isRunning = false
                return nil
            }
            return queue.removeFirst()
        }) {
            next()
        }
        return cancel
    }

    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        time.scheduleRelative(state, dueTime: dueTime) { state in self.schedule(state, action: action) }
    }
}

/// Runs `send` as a session applies an input, then waits (at most
/// `timeoutSeconds`) for the work the input holds its answer for
/// (`AnswerHold`): a test of a ViewModel whose inputs write to a store reads
/// on once the writes are done, as the session answers then. False if the
/// answer was still held.
public func applyAsInput(timeoutSeconds: Int = 10, _ send: () -> Void) -> Bool {
    let turn = InputTurn()
    turn.begin()
    send()
    guard let pending = turn.end() else { return true }
    let released = DispatchSemaphore(value: 0)
    pending.whenReleased { _ in released.signal() }
    return released.wait(timeout: .now() + .seconds(timeoutSeconds)) == .success
}
