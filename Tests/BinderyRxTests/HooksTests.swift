import BinderyRx
import BinderyRxTest
import Foundation
import XCTest

/// `Hooks.defaultErrorHandler` receives the errors that reach a `subscribe` with no error handler.
final class HooksTests: XCTestCase {
    private var originalHandler: Hooks.DefaultErrorHandler!
    private var originalCapture: Hooks.CustomCaptureSubscriptionCallstack!

    override func setUp() {
        super.setUp()
        originalHandler = Hooks.defaultErrorHandler
        originalCapture = Hooks.customCaptureSubscriptionCallstack
    }

    override func tearDown() {
        Hooks.defaultErrorHandler = originalHandler
        Hooks.customCaptureSubscriptionCallstack = originalCapture
        Hooks.recordCallStackOnError = false
        super.tearDown()
    }

    func testUnhandledErrorsReachTheHandlerAtTheirTime() {
        let scheduler = TestScheduler(initialClock: 0)
        var handled: [(TestTime, TestError)] = []
        Hooks.defaultErrorHandler = { _, error in handled.append((scheduler.clock, error as! TestError)) }
        let failing = scheduler.createColdObservable([Recorded<Event<Int>>.error(10, TestError.boom)]).asObservable()
        let bag = DisposeBag()
        scheduler.scheduleAt(100) {
            failing.subscribe(onNext: { _ in }).disposed(by: bag)
            failing.asSingle().subscribe(onSuccess: { _ in }).disposed(by: bag)
            failing.asMaybe().subscribe(onSuccess: { _ in }).disposed(by: bag)
            failing.ignoreElements().asCompletable().subscribe(onCompleted: {}).disposed(by: bag)
        }
        scheduler.start()
        XCTAssertEqual(handled.map(\.0), [110, 110, 110, 110])
        XCTAssertEqual(handled.map(\.1), [.boom, .boom, .boom, .boom])
    }

    func testHandledErrorsDoNotReachIt() {
        var handled = 0
        Hooks.defaultErrorHandler = { _, _ in handled += 1 }
        let failing = Observable<Int>.error(TestError.boom)
        _ = failing.subscribe(onError: { _ in })
        _ = failing.asSingle().subscribe(onFailure: { _ in })
        _ = failing.asMaybe().subscribe(onError: { _ in })
        _ = failing.ignoreElements().asCompletable().subscribe(onError: { _ in })
        _ = failing.subscribe { _ in }
        XCTAssertEqual(handled, 0)
    }

    func testTheCallStackIsRecordedOnlyWhenAskedFor() {
        var stacks: [[String]] = []
        Hooks.defaultErrorHandler = { stack, _ in stacks.append(stack) }
        Hooks.customCaptureSubscriptionCallstack = { ["frame"] }
        _ = Observable<Int>.error(TestError.boom).subscribe()
        Hooks.recordCallStackOnError = true
        _ = Observable<Int>.error(TestError.boom).subscribe()
        _ = Single<Int>.error(TestError.boom).subscribe()
        XCTAssertEqual(stacks, [[], ["frame"], ["frame"]])
    }

    func testTheHandlerMayBeSetFromAnyThread() {
        DispatchQueue.concurrentPerform(iterations: 200) { i in
            if i.isMultiple(of: 2) {
                Hooks.defaultErrorHandler = { _, _ in }
            } else {
                _ = Observable<Int>.error(TestError.boom).subscribe()
            }
        }
    }
}
