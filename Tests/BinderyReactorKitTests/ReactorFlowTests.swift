import BinderyReactorKit
import BinderyRxTest
import XCTest

/// The flow: action → transform(action:) → mutate → transform(mutation:) → reduce →
/// transform(state:) → state, made once and replaying the current state.
final class ReactorFlowTests: XCTestCase {
    /// Each hook appends its name, so the state says which hooks saw the action, in order.
    private final class TracingReactor: Reactor {
        typealias Action = [String]
        typealias State = [String]
        let initialState: State = []

        func transform(action: Observable<Action>) -> Observable<Action> { action.map { $0 + ["transform(action:)"] } }
        func mutate(action: Action) -> Observable<Action> { .just(action + ["mutate"]) }
        func transform(mutation: Observable<Action>) -> Observable<Action> { mutation.map { $0 + ["transform(mutation:)"] } }
        func reduce(state: State, mutation: Action) -> State { mutation + ["reduce"] }
        func transform(state: Observable<State>) -> Observable<State> { state.map { $0 + ["transform(state:)"] } }
    }

    func testAnActionGoesThroughEveryHookInOrder() {
        let reactor = TracingReactor()
        reactor.action.onNext(["action"])
        XCTAssertEqual(reactor.currentState, ["action", "transform(action:)", "mutate", "transform(mutation:)", "reduce", "transform(state:)"])
    }

    func testTheInitialStateIsTransformedToo() {
        let reactor = TracingReactor()
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { reactor.state }
        XCTAssertEqual(observer.events, [.next(0, ["transform(state:)"])])
    }

    func testStateFollowsActionsInVirtualTime() {
        let reactor = CounterReactor()
        let scheduler = TestScheduler(initialClock: 0)
        let disposeBag = DisposeBag()
        scheduler.createHotObservable([.next(100, .increase), .next(200, .increase), .next(300, .set(10))])
            .subscribe(reactor.action)
            .disposed(by: disposeBag)
        let observer = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { reactor.state.map(\.count) }
        XCTAssertEqual(observer.events, [.next(0, 0), .next(100, 1), .next(200, 2), .next(300, 10)])
    }

    func testCurrentStateIsTheInitialStateUntilAnActionIsReduced() {
        let reactor = CounterReactor(count: 5)
        XCTAssertEqual(reactor.currentState.count, 5)
        reactor.action.onNext(.increase)
        XCTAssertEqual(reactor.currentState.count, 6)
    }

    func testSendingAnActionWithNoOneSubscribedStillReducesIt() {
        let reactor = CounterReactor()
        reactor.action.onNext(.increase)
        reactor.action.onNext(.increase)
        XCTAssertEqual(reactor.currentState.count, 2)
    }

    func testALateSubscriberGetsOnlyTheCurrentState() {
        let reactor = CounterReactor()
        let first = reactor.state.subscribe()
        reactor.action.onNext(.increase)
        reactor.action.onNext(.increase)
        first.dispose()
        var received: [Int] = []
        let second = reactor.state.subscribe(onNext: { received.append($0.count) })
        second.dispose()
        XCTAssertEqual(received, [2])
    }

    func testTheStreamsAreMadeOnceAndKept() {
        let reactor = CounterReactor()
        let action = reactor.action
        let state = reactor.state
        XCTAssertTrue(reactor.action === action)
        XCTAssertTrue(reactor.state === state)
    }

    func testAFailingMutationEndsOnlyItself() {
        let reactor = CounterReactor()
        reactor.action.onNext(.fail)
        reactor.action.onNext(.increase)
        XCTAssertEqual(reactor.currentState.count, 2)
    }

    func testErrorsAndCompletionSentToTheActionAreDropped() {
        let reactor = CounterReactor()
        let scheduler = TestScheduler(initialClock: 0)
        let disposeBag = DisposeBag()
        scheduler.createHotObservable([.next(100, CounterReactor.Action.increase), .error(150, CounterError())])
            .subscribe(reactor.action)
            .disposed(by: disposeBag)
        scheduler.createHotObservable([.completed(150), .next(200, CounterReactor.Action.increase)])
            .subscribe(reactor.action)
            .disposed(by: disposeBag)
        let observer = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { reactor.state.map(\.count) }
        XCTAssertEqual(observer.events, [.next(0, 0), .next(100, 1), .next(200, 2)])
    }

    func testWithoutMutateEachActionIsItsOwnMutation() {
        final class EchoReactor: Reactor {
            typealias Action = Int
            typealias State = [Int]
            let initialState: State = []
            func reduce(state: State, mutation: Int) -> State { state + [mutation] }
        }
        let reactor = EchoReactor()
        reactor.action.onNext(1)
        reactor.action.onNext(2)
        XCTAssertEqual(reactor.currentState, [1, 2])
    }

    func testWithoutReduceTheStateStays() {
        final class SilentReactor: Reactor {
            typealias Action = Int
            typealias State = Int
            let initialState = 7
        }
        let reactor = SilentReactor()
        reactor.action.onNext(1)
        XCTAssertEqual(reactor.currentState, 7)
    }

    func testAGenericSubclassKeepsOneActionSubject() {
        class ListReactor<Item>: Reactor {
            typealias Action = Item
            typealias State = [Item]
            let initialState: State = []
            func reduce(state: State, mutation: Item) -> State { state + [mutation] }
        }
        final class NamesReactor: ListReactor<String> {}
        let reactor = NamesReactor()
        let action = reactor.action
        _ = reactor.state
        XCTAssertTrue(reactor.action === action)
        reactor.action.onNext("a")
        XCTAssertEqual(reactor.currentState, ["a"])
    }

    func testPulseEmitsEachAssignmentAndNothingElse() {
        final class AlertReactor: Reactor {
            enum Action {
                case alert(String)
                case tick
            }
            struct State {
                @Pulse var message = ""
                var ticks = 0
            }
            let initialState = State()
            func reduce(state: State, mutation: Action) -> State {
                var state = state
                switch mutation {
                case .alert(let message): state.message = message
                case .tick: state.ticks += 1
                }
                return state
            }
        }
        let reactor = AlertReactor()
        var messages: [String] = []
        let subscription = reactor.pulse(\.$message).subscribe(onNext: { messages.append($0) })
        reactor.action.onNext(.alert("saved"))
        reactor.action.onNext(.tick)
        reactor.action.onNext(.alert("saved"))
        subscription.dispose()
        XCTAssertEqual(messages, ["", "saved", "saved"])
    }

    func testIdentityHashableReactorsAreEqualOnlyToThemselves() {
        final class CellReactor: Reactor, IdentityHashable {
            typealias Action = Never
            let initialState = 0
        }
        let first = CellReactor()
        let second = CellReactor()
        XCTAssertEqual(Set([first, first, second]).count, 2)
        XCTAssertNotEqual(first, second)
    }
}
