import XCTest

@testable import BinderyReactorKit

/// A reactor's streams and state live in `ReactorStorageTable`, beside the reactor: they
/// never keep it alive, and they go once it has gone and the table has swept.
final class ReactorStorageTests: XCTestCase {
    /// Looks up a live reactor's storage until the table has swept once.
    private func sweep() {
        let live = CounterReactor()
        for _ in 0...max(ReactorStorageTable.shared.count, ReactorStorageTable.sweepInterval) {
            _ = live.currentState
        }
    }

    func testTheStreamsDoNotKeepTheReactor() {
        weak var gone: CounterReactor?
        var state: Observable<CounterReactor.State>?
        do {
            let reactor = CounterReactor()
            gone = reactor
            state = reactor.state
            reactor.action.onNext(.increase)
        }
        XCTAssertNil(gone)
        var received: [Int] = []
        _ = state?.subscribe(onNext: { received.append($0.count) }).dispose()
        XCTAssertEqual(received, [1])
    }

    func testAGoneReactorsStreamsGoAtTheNextSweep() {
        weak var action: ActionSubject<CounterReactor.Action>?
        weak var state: Observable<CounterReactor.State>?
        weak var stub: Stub<CounterReactor>?
        do {
            let reactor = CounterReactor()
            action = reactor.action
            state = reactor.state
            stub = reactor.stub
        }
        XCTAssertNotNil(action, "until the table sweeps, it holds them (Linux gives no deinit hook)")
        sweep()
        XCTAssertNil(action)
        XCTAssertNil(state)
        XCTAssertNil(stub)
    }

    func testTheTableKeepsOnlyLiveReactorsAfterASweep() {
        let live = (0..<10).map { _ in CounterReactor() }
        for reactor in live { reactor.action.onNext(.increase) }
        do {
            let gone = (0..<200).map { _ in CounterReactor() }
            for reactor in gone { reactor.action.onNext(.increase) }
        }
        sweep()
        XCTAssertLessThan(ReactorStorageTable.shared.count, 200)
        XCTAssertEqual(live.map(\.currentState.count), Array(repeating: 1, count: 10))
    }

    func testANewReactorAtAGoneOnesAddressStartsAfresh() throws {
        var address: ObjectIdentifier?
        var oldAction: ActionSubject<CounterReactor.Action>?
        do {
            let reactor = CounterReactor()
            reactor.action.onNext(.increase)
            address = ObjectIdentifier(reactor)
            oldAction = reactor.action
        }
        // The allocator hands a freed block to the next object of its size: look for it.
        var made: [CounterReactor] = []
        for _ in 0..<100 {
            made.append(CounterReactor())
            if ObjectIdentifier(made.last!) == address { break }
        }
        guard let reused = made.last, ObjectIdentifier(reused) == address else {
            throw XCTSkip("no new reactor took the gone one's address")
        }
        XCTAssertEqual(reused.currentState.count, 0)
        XCTAssertFalse(reused.action === oldAction)
    }
}
