import BinderyRx
import XCTest

/// Subjects and connectables are observables, as in RxSwift: code that compares
/// `asObservable()` results or returns a `replay(1)` as an `Observable` works as written.
final class ObservableClassTests: XCTestCase {
    func testASubjectIsItsOwnObservable() {
        let publish = PublishSubject<Int>()
        let behavior = BehaviorSubject(value: 0)
        let replay = ReplaySubject<Int>.create(bufferSize: 1)
        let async = AsyncSubject<Int>()
        XCTAssertTrue(publish.asObservable() === publish)
        XCTAssertTrue(behavior.asObservable() === behavior)
        XCTAssertTrue(replay.asObservable() === replay)
        XCTAssertTrue(async.asObservable() === async)
    }

    func testARelayGivesTheSameObservableEveryTime() {
        let relay = PublishRelay<Int>()
        XCTAssertTrue(relay.asObservable() === relay.asObservable())
        let state = BehaviorRelay(value: 1)
        XCTAssertTrue(state.asObservable() === state.asObservable())
    }

    func testASubjectPassesWhereAnObservableIsDeclared() {
        let subject = PublishSubject<Int>()
        let observable: Observable<Int> = subject
        var seen: [Int] = []
        let subscription = observable.subscribe(onNext: { seen.append($0) })
        subject.onNext(1)
        subject.onNext(2)
        subscription.dispose()
        subject.onNext(3)
        XCTAssertEqual(seen, [1, 2])
    }

    /// ReactorKit's `createStateStream` returns a connected `replay(1)` as its state.
    func testAReplayIsReturnedAsAnObservable() {
        let source = BehaviorSubject(value: 1)
        func state() -> Observable<Int> {
            let replayed = source.map { $0 * 10 }.replay(1)
            _ = replayed.connect()
            return replayed
        }
        let stream = state()
        source.onNext(2)
        var seen: [Int] = []
        _ = stream.subscribe(onNext: { seen.append($0) })
        source.onNext(3)
        XCTAssertEqual(seen, [20, 30])
        XCTAssertTrue(stream is ConnectableObservable<Int>)
    }

    /// The grammar a plain observable enforces is the subject's own: after completion nothing.
    func testASubjectSubscribedAsAnObservableKeepsItsSemantics() {
        let subject = BehaviorSubject(value: "a")
        let observable: Observable<String> = subject
        var events: [String] = []
        _ = observable.subscribe(onNext: { events.append($0) }, onCompleted: { events.append("|") })
        subject.onNext("b")
        subject.onCompleted()
        subject.onNext("c")
        XCTAssertEqual(events, ["a", "b", "|"])
    }
}
