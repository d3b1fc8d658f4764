import BinderyRx
import BinderyRxTest
import XCTest

final class ActionTests: XCTestCase {
    func testExecuteReturnsTheWorksElements() {
        let action = Action<Int, Int> { .just($0 * 2) }
        var values: [Int] = []
        var completed = false
        _ = action.execute(21).subscribe(onNext: { values.append($0) }, onCompleted: { completed = true })
        XCTAssertEqual(values, [42])
        XCTAssertTrue(completed)
    }

    func testElementsExecutingAndEnabledInVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let work = scheduler.createColdObservable([.next(10, "a"), .completed(20)])
        let action = Action<Int, String> { _ in work.asObservable() }
        let elements = scheduler.createObserver(String.self)
        let executing = scheduler.createObserver(Bool.self)
        let enabled = scheduler.createObserver(Bool.self)
        let errors = scheduler.createObserver(String.self)
        let bag = DisposeBag()
        action.elements.subscribe(elements).disposed(by: bag)
        action.executing.subscribe(executing).disposed(by: bag)
        action.enabled.subscribe(enabled).disposed(by: bag)
        action.errors.map { "\($0)" }.subscribe(errors).disposed(by: bag)
        scheduler.scheduleAt(100) { action.execute(1) }
        scheduler.scheduleAt(110) { action.execute(2) }
        scheduler.start()
        XCTAssertEqual(elements.events, [.next(110, "a")])
        XCTAssertEqual(executing.events, [.next(0, false), .next(100, true), .next(120, false)])
        XCTAssertEqual(enabled.events, [.next(0, true), .next(100, false), .next(120, true)])
        XCTAssertEqual(errors.events, [.next(110, "notEnabled")])
        XCTAssertEqual(work.subscriptions, [Subscription(100, 120)])
    }

    func testExecuteWhileDisabledFailsWithNotEnabled() {
        let action = Action<Void, Int>(enabledIf: .just(false)) { .just(1) }
        var error: Error?
        _ = action.execute().subscribe(onError: { error = $0 })
        guard case .notEnabled? = error as? ActionError else { return XCTFail("expected notEnabled, got \(String(describing: error))") }
    }

    func testWorkErrorsAreWrapped() {
        let action = Action<Int, Int> { _ in .error(TestError.boom) }
        var executeError: Error?
        var underlying: [Error] = []
        let bag = DisposeBag()
        action.underlyingError.subscribe(onNext: { underlying.append($0) }).disposed(by: bag)
        _ = action.execute(1).subscribe(onError: { executeError = $0 })
        guard case .underlyingError(let inner)? = executeError as? ActionError else { return XCTFail("expected underlyingError") }
        XCTAssertEqual(inner as? TestError, .boom)
        XCTAssertEqual(underlying.count, 1)
        var enabled: Bool?
        _ = action.enabled.subscribe(onNext: { enabled = $0 })
        XCTAssertEqual(enabled, true)
    }

    func testInputsObserverAndEnabledIf() {
        let gate = BehaviorSubject(value: true)
        var runs = 0
        let action = CompletableAction<Int>(enabledIf: gate.asObservable()) { _ in
            runs += 1
            return Observable<Never>.empty()
        }
        action.inputs.onNext(1)
        gate.onNext(false)
        action.inputs.onNext(2)
        XCTAssertEqual(runs, 1)
    }
}
