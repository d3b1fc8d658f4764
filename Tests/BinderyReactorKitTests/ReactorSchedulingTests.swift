import BinderyReactorKit
import BinderyRxTest
import Dispatch
import Foundation
import XCTest

/// Where and when actions are handled: on the current thread by default, one at a time;
/// on the reactor's `scheduler` when it names one.
final class ReactorSchedulingTests: XCTestCase {
    func testAnActionSentFromAStateSubscriberWaitsForTheCurrentOne() {
        final class StepsReactor: Reactor {
            enum Action { case first, second }
            typealias Mutation = String
            typealias State = [String]
            let initialState: State = []
            func mutate(action: Action) -> Observable<String> {
                switch action {
                case .first: return .from(["first begins", "first ends"])
                case .second: return .from(["second begins", "second ends"])
                }
            }
            func reduce(state: State, mutation: String) -> State { state + [mutation] }
        }
        let reactor = StepsReactor()
        var sent = false
        let subscription = reactor.state.subscribe(onNext: { state in
            guard !sent, state.contains("first begins") else { return }
            sent = true
            reactor.action.onNext(.second)
        })
        reactor.action.onNext(.first)
        subscription.dispose()
        XCTAssertEqual(reactor.currentState, ["first begins", "first ends", "second begins", "second ends"])
    }

    func testActionsAreHandledOnTheReactorsScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let reactor = CounterReactor(scheduler: scheduler)
        let disposeBag = DisposeBag()
        scheduler.createHotObservable([.next(100, CounterReactor.Action.increase), .next(200, .increase)])
            .subscribe(reactor.action)
            .disposed(by: disposeBag)
        let observer = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { reactor.state.map(\.count) }
        // Each action waits one tick for the scheduler: it was sent at 100 and 200.
        XCTAssertEqual(observer.events, [.next(0, 0), .next(101, 1), .next(201, 2)])
    }

    func testAnActionIsNotReducedBeforeItsSchedulerRuns() {
        let scheduler = TestScheduler(initialClock: 0)
        let reactor = CounterReactor(scheduler: scheduler)
        reactor.action.onNext(.increase)
        XCTAssertEqual(reactor.currentState.count, 0)
        scheduler.start()
        XCTAssertEqual(reactor.currentState.count, 1)
    }

    func testThreadsReadingTheStateAtOnceShareOneStream() {
        final class SlowToMakeReactor: Reactor, @unchecked Sendable {
            typealias Action = Int
            typealias State = Int
            let initialState = 0
            let made = NSLock()
            var timesMade = 0
            func transform(action: Observable<Int>) -> Observable<Int> {
                made.withLock { timesMade += 1 }
                return action
            }
        }
        final class Collected: @unchecked Sendable {
            let lock = NSLock()
            var states: [Observable<Int>] = []
        }
        let reactor = SlowToMakeReactor()
        let collected = Collected()
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let state = reactor.state
            collected.lock.withLock { collected.states.append(state) }
        }
        XCTAssertEqual(reactor.timesMade, 1)
        XCTAssertEqual(collected.states.count, 16)
        XCTAssertTrue(collected.states.allSatisfy { $0 === collected.states[0] })
    }

    func testActionsSentFromManyThreadsAreAllReduced() {
        let reactor = CounterReactor()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<250 { reactor.action.onNext(.increase) }
        }
        XCTAssertEqual(reactor.currentState.count, 2000)
    }
}
