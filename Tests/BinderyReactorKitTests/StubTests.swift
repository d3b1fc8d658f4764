import BinderyReactorKit
import XCTest

/// A stubbed reactor, for testing what uses it: actions recorded, state set by hand.
final class StubTests: XCTestCase {
    func testAStubbedReactorRecordsActionsInsteadOfReducingThem() {
        let reactor = CounterReactor()
        reactor.isStubEnabled = true
        reactor.action.onNext(.increase)
        reactor.action.onNext(.set(3))
        XCTAssertEqual(reactor.stub.actions, [.increase, .set(3)])
        XCTAssertEqual(reactor.currentState.count, 0)
    }

    func testAStubbedReactorsStateIsTheStubs() {
        let reactor = CounterReactor()
        reactor.isStubEnabled = true
        var received: [Int] = []
        let subscription = reactor.state.subscribe(onNext: { received.append($0.count) })
        reactor.stub.state.value = CounterReactor.State(count: 42)
        subscription.dispose()
        XCTAssertEqual(received, [0, 42])
        XCTAssertEqual(reactor.currentState.count, 42)
    }

    func testTheStubsStreamsAreTheReactors() {
        let reactor = CounterReactor()
        reactor.isStubEnabled = true
        XCTAssertTrue(reactor.action === reactor.stub.action)
        XCTAssertTrue(reactor.state === reactor.stub.state.asObservable())
    }

    func testTurningTheStubOffGivesBackTheReactorsOwnStreams() {
        let reactor = CounterReactor()
        reactor.isStubEnabled = true
        reactor.action.onNext(.increase)
        reactor.isStubEnabled = false
        reactor.action.onNext(.increase)
        XCTAssertEqual(reactor.stub.actions, [.increase])
        XCTAssertEqual(reactor.currentState.count, 1)
    }
}
