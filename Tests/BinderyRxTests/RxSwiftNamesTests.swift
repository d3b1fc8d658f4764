import BinderyRx
import BinderyRxTest
import Foundation
import XCTest

/// Names of RxSwift 6 (Tests/api/rxswift6.txt) that ported code uses: RxSwift 5's names,
/// which RxSwift 6 still ships deprecated, behave as what they were renamed to (so calling
/// them here warns, as it does in RxSwift).
final class RxSwiftNamesTests: XCTestCase {
    func testDeprecatedObservableNames() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
        XCTAssertEqual(scheduler.start { xs.elementAt(1) }.events, [.next(220, 2), .completed(220)])

        var skipped: [Int] = []
        _ = Observable.of(1, 2, 3, 1).skipWhile { $0 < 2 }.subscribe(onNext: { skipped.append($0) })
        XCTAssertEqual(skipped, [2, 3, 1])

        var attempts = 0
        var retried: [Event<Int>] = []
        _ = Observable<Int>.deferred {
            attempts += 1
            return attempts < 3 ? .error(TestError.boom) : .just(attempts)
        }
        .retryWhen { (errors: Observable<TestError>) in errors }
        .subscribe { retried.append($0) }
        XCTAssertEqual(retried, [.next(3), .completed])
    }

    func testDeprecatedPrimitiveSequenceNames() {
        var results: [SingleEvent<Int>] = []
        _ = Single<Int>.error(TestError.boom).catchErrorJustReturn(1).subscribe { results.append($0) }
        _ = Single<Int>.error(TestError.boom).catchError { _ in .just(2) }.subscribe { results.append($0) }
        var attempts = 0
        _ = Single<Int>.deferred {
            attempts += 1
            return attempts < 2 ? .error(TestError.boom) : .just(3)
        }
        .retryWhen { (errors: Observable<Error>) in errors }
        .subscribe { results.append($0) }
        XCTAssertEqual(results.map { try? $0.get() }, [1, 2, 3])

        var maybe: [MaybeEvent<Int>] = []
        _ = Maybe<Int>.error(TestError.boom).catchErrorJustReturn(4).subscribe { maybe.append($0) }
        XCTAssertEqual(maybe, [.success(4)])
    }

    func testRxObservableIsObservable() {
        let observable: RxObservable<Int> = .just(1)
        XCTAssertTrue(type(of: observable) == Observable<Int>.self)
    }

    func testSchedulersNameFoundationsTimeTypes() {
        let time: MainScheduler.Time = Date(timeIntervalSince1970: 0)
        let interval: ConcurrentDispatchQueueScheduler.TimeInterval = 1.5
        XCTAssertEqual(time.addingTimeInterval(interval), Date(timeIntervalSince1970: 1.5))
        XCTAssertTrue(SerialDispatchQueueScheduler.Time.self == Date.self)
        XCTAssertTrue(ConcurrentMainScheduler.TimeInterval.self == Foundation.TimeInterval.self)
    }

    func testScheduleRecursiveRunsEachStepAsScheduledWork() {
        let scheduler = TestScheduler(initialClock: 0)
        var steps: [String] = []
        scheduler.scheduleAt(100) {
            _ = scheduler.scheduleRecursive(1) { step, recurse in
                steps.append("\(step)@\(scheduler.clock)")
                if step < 3 { recurse(step + 1) }
            }
        }
        scheduler.start()
        XCTAssertEqual(steps, ["1@101", "2@102", "3@103"])
    }

    func testSignalWithUnretainedCompletesOnceTheObjectIsGone() {
        final class Owner {}
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        var owner: Owner? = Owner()
        var signal: Signal<Int>!
        SharingScheduler.mock(scheduler: scheduler) {
            signal = xs.asSignal(onErrorJustReturn: -1).withUnretained(owner!).map { $0.1 }
        }
        scheduler.scheduleAt(220) { owner = nil }
        XCTAssertEqual(scheduler.start { signal }.events, [.next(211, 1), .completed(231)])
    }
}
