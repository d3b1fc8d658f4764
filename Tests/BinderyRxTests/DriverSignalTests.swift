import BinderyRx
import BinderyRxTest
import Foundation
import XCTest

/// Driver and Signal observed on a mocked `TestScheduler`: as in RxCocoa, hopping
/// onto the sharing scheduler costs the one tick of simulated processing delay.
final class DriverSignalTests: XCTestCase {
    func testDriverNeverErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
        var driver: Driver<Int>!
        SharingScheduler.mock(scheduler: scheduler) { driver = xs.asDriver(onErrorJustReturn: -1) }
        let res = scheduler.start { driver }
        XCTAssertEqual(res.events, [.next(211, 1), .next(221, -1), .completed(221)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200, 220)])
    }

    func testDriverReplaysTheLatestElementToLateSubscribers() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        var driver: Driver<Int>!
        SharingScheduler.mock(scheduler: scheduler) { driver = xs.asDriver(onErrorJustReturn: 0).map { $0 * 10 } }
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = driver.drive(first) }
        scheduler.scheduleAt(220) { _ = driver.drive(second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(211, 10), .next(231, 20)])
        XCTAssertEqual(second.events, [.next(220, 10), .next(231, 20)])
        XCTAssertEqual(xs.subscriptions, [Subscription(200)])
    }

    func testSignalSharesWithoutReplay() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        var signal: Signal<Int>!
        SharingScheduler.mock(scheduler: scheduler) { signal = xs.asSignal(onErrorJustReturn: 0) }
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = signal.emit(to: first) }
        scheduler.scheduleAt(220) { _ = signal.emit(to: second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(211, 1), .next(231, 2)])
        XCTAssertEqual(second.events, [.next(231, 2)])
    }

    func testDriverTimeOperatorsUseTheSharingScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(215, 2), .next(250, 3)])
        var driver: Driver<Int>!
        SharingScheduler.mock(scheduler: scheduler) {
            driver = xs.asDriver(onErrorJustReturn: 0).debounce(.seconds(10))
        }
        XCTAssertEqual(scheduler.start { driver }.events, [.next(226, 2), .next(261, 3)])
    }

    func testDriverFlatMapFamilyAndStartWith() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        // The inner drivers are made while the test runs, so the mock must cover `start` too.
        SharingScheduler.mock(scheduler: scheduler) {
            let input = xs.asDriver(onErrorJustReturn: 0)
            let driver = input.flatMapLatest { value in Driver.just(value * 100) }.startWith(0)
            XCTAssertEqual(scheduler.start { driver }.events, [.next(200, 0), .next(212, 100), .next(222, 200)])
        }
    }

    func testDriverZipAndMerge() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        let ys = scheduler.createHotObservable([.next(215, 10)])
        var zipped: Driver<Int>!
        var merged: Driver<Int>!
        SharingScheduler.mock(scheduler: scheduler) {
            let a = xs.asDriver(onErrorJustReturn: 0)
            let b = ys.asDriver(onErrorJustReturn: 0)
            zipped = Driver.zip(a, b) { $0 + $1 }
            merged = Driver.merge(a, b)
        }
        XCTAssertEqual(scheduler.start { zipped }.events, [.next(216, 11)])
        let mergeScheduler = TestScheduler(initialClock: 0)
        let c = mergeScheduler.createHotObservable([.next(210, 1)])
        let d = mergeScheduler.createHotObservable([.next(205, 2)])
        SharingScheduler.mock(scheduler: mergeScheduler) {
            merged = Driver.merge(c.asDriver(onErrorJustReturn: 0), d.asDriver(onErrorJustReturn: 0))
        }
        XCTAssertEqual(mergeScheduler.start { merged }.events, [.next(206, 2), .next(211, 1)])
    }

    func testBehaviorRelayAsDriver() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = BehaviorRelay(value: "a")
        var driver: Driver<String>!
        SharingScheduler.mock(scheduler: scheduler) { driver = relay.asDriver() }
        scheduler.scheduleAt(300) { relay.accept("b") }
        XCTAssertEqual(scheduler.start { driver }.events, [.next(201, "a"), .next(301, "b")])
    }

    /// As in RxCocoa, each shared sequence gets a `MainScheduler` of its own: work another
    /// sequence left queued on the main queue must not make this one go asynchronous.
    func testEachSharedSequenceHasItsOwnMainScheduler() {
        XCTAssertTrue(Thread.isMainThread)
        XCTAssertFalse(SharingScheduler.make() as AnyObject === SharingScheduler.make() as AnyObject)
        // Queued from another thread, this waits for the main queue, which nothing runs meanwhile.
        let queued = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = MainScheduler.instance.schedule(()) { _ in Disposables.create() }
            queued.signal()
        }
        XCTAssertEqual(queued.wait(timeout: .now() + 5), .success)
        var values: [Int] = []
        let subscription = Observable.just(1).asDriver(onErrorJustReturn: 0).drive(onNext: { values.append($0) })
        subscription.dispose()
        XCTAssertEqual(values, [1])
    }

    /// RxCocoa's ways of making shared sequences: each element is one action on the strategy's scheduler.
    func testOfFromSequenceFromOptionalIntervalAndTimer() {
        func events<Element: Equatable>(_ make: @escaping () -> Driver<Element>, disposed: TestTime = 1000) -> [Recorded<Event<Element>>] {
            let scheduler = TestScheduler(initialClock: 0)
            var driver: Driver<Element>!
            SharingScheduler.mock(scheduler: scheduler) { driver = make() }
            return scheduler.start(disposed: disposed) { driver }.events
        }
        XCTAssertEqual(events { Driver.of(1, 2) }, [.next(201, 1), .next(202, 2), .completed(203)])
        XCTAssertEqual(events { Driver.from(AnySequence([3])) }, [.next(201, 3), .completed(202)])
        XCTAssertEqual(events { Driver.from(optional: 4 as Int?) }, [.next(201, 4), .completed(202)])
        XCTAssertEqual(events { Driver.from(optional: nil as Int?) }, [.completed(201)])
        XCTAssertEqual(events({ Driver<Int>.interval(.seconds(100)) }, disposed: 450), [.next(300, 0), .next(400, 1)])
        XCTAssertEqual(events({ Driver<Int>.timer(.seconds(50), period: .seconds(100)) }, disposed: 400), [.next(250, 0), .next(350, 1)])
    }

    func testConcatMergeAndCollectionsWithAResultSelector() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let ys = scheduler.createHotObservable([.next(215, 10), .next(230, 20), .completed(240)])
        var concatenated, merged, zipped, combined: Driver<Int>!
        SharingScheduler.mock(scheduler: scheduler) {
            let a = xs.asDriver(onErrorJustReturn: 0), b = ys.asDriver(onErrorJustReturn: 0)
            concatenated = Driver.concat(AnySequence([a, b]))
            merged = Driver.merge(AnyCollection([a, b]))
            zipped = Driver.zip([a, b]) { $0.reduce(0, +) }
            combined = Driver.combineLatest([a, b]) { $0.reduce(0, +) }
        }
        let o = [concatenated, merged, zipped, combined].map { driver -> TestableObserver<Int> in
            let observer = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(200) { _ = driver!.drive(observer) }
            return observer
        }
        scheduler.start()
        // `b` is shared by the four, so concat's late subscription gets its latest element replayed.
        XCTAssertEqual(o[0].events, [.next(211, 1), .next(221, 10), .next(231, 20), .completed(241)])
        XCTAssertEqual(o[1].events, [.next(211, 1), .next(216, 10), .next(231, 20), .completed(241)])
        // The collection zip ends when an element can never be paired.
        XCTAssertEqual(o[2].events, [.next(216, 11), .completed(231)])
        XCTAssertEqual(o[3].events, [.next(216, 11), .next(231, 21), .completed(241)])
    }

    /// As in RxCocoa, a flatMap whose inner sequences are signals makes a signal.
    func testFlatMapFamilyTakesTheInnerStrategy() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
        var observers: [TestableObserver<Int>] = []
        // The inner signals are made while the scheduler runs, so the mock covers the run.
        SharingScheduler.mock(scheduler: scheduler) {
            let driver = xs.asDriver(onErrorJustReturn: 0)
            let signals: [Signal<Int>] = [
                driver.flatMap { Signal.just($0 * 10) },
                driver.flatMapLatest { Signal.just($0 * 10) },
                driver.flatMapFirst { Signal.just($0 * 10) },
                driver.map { Signal.just($0 * 10) }.merge(),
                driver.map { Signal.just($0 * 10) }.merge(maxConcurrent: 1),
                driver.map { Signal.just($0 * 10) }.switchLatest(),
            ]
            observers = signals.map { signal -> TestableObserver<Int> in
                let observer = scheduler.createObserver(Int.self)
                scheduler.scheduleAt(200) { _ = signal.emit(to: observer) }
                return observer
            }
            scheduler.start()
        }
        for observer in observers {
            XCTAssertEqual(observer.events, [.next(212, 10), .next(222, 20)])
        }
    }

    func testAsSharedSequenceWithAStrategy() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
        var signal: Signal<Int>!
        SharingScheduler.mock(scheduler: scheduler) { signal = xs.asSharedSequence(sharingStrategy: SignalSharingStrategy.self, onErrorJustReturn: -1) }
        XCTAssertEqual(scheduler.start { signal }.events, [.next(211, 1), .next(221, -1), .completed(221)])
    }

    func testSharingSchedulerDefaultsAndMockRestores() {
        XCTAssertTrue(SharingScheduler.make() is MainScheduler)
        let test = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: test) { XCTAssertTrue(SharingScheduler.make() as AnyObject === test) }
        XCTAssertTrue(SharingScheduler.make() is MainScheduler)
        let session = SerialScheduler(label: "test.session")
        session.sync { XCTAssertTrue(SharingScheduler.make() as AnyObject === session) }
    }

    /// A type that is a shared sequence by `asSharedSequence()` alone (as
    /// RxExample's `ActivityIndicator` is) is an observable too, as in RxCocoa.
    func testASharedSequenceConvertibleIsAnObservableByItsSharedSequence() {
        final class Loading: SharedSequenceConvertibleType {
            typealias Element = Bool
            typealias SharingStrategy = DriverSharingStrategy
            let relay = BehaviorRelay(value: 0)
            func asSharedSequence() -> SharedSequence<DriverSharingStrategy, Bool> { relay.asDriver().map { $0 > 0 } }
        }
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let loading = Loading()
            let observer = scheduler.createObserver(Bool.self)
            _ = loading.asObservable().subscribe(observer)
            scheduler.scheduleAt(300) { loading.relay.accept(1) }
            scheduler.start()
            XCTAssertEqual(observer.events, [.next(1, false), .next(301, true)])  // one tick to reach the mocked scheduler
        }
    }
}

/// `bind(to:)` an observer passes on every event, as RxCocoa's does.
final class BindTests: XCTestCase {
    /// Relays of optionals and replay relays take elements from `bind`, `drive` and `emit`, as in RxRelay and RxCocoa.
    func testBindDriveAndEmitIntoOptionalAndReplayRelays() {
        let behavior = BehaviorRelay<Int?>(value: nil)
        let publish = PublishRelay<Int?>()
        let replay = ReplayRelay<Int?>.create(bufferSize: 3)
        let plainReplay = ReplayRelay<Int>.create(bufferSize: 3)
        var published: [Int?] = []
        let watching = publish.subscribe(onNext: { published.append($0) })

        _ = Observable.just(1).bind(to: behavior, behavior)
        _ = Observable.just(2).bind(to: publish)
        _ = Observable.just(3).bind(to: replay)
        XCTAssertEqual(behavior.value, 1)
        XCTAssertEqual(published, [2])

        let test = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: test) {
            _ = Driver.just(4).drive(behavior)
            _ = Driver.just(5).drive(replay, replay)
            _ = Driver.just(6).drive(plainReplay)
            _ = Signal.just(7).emit(to: publish)
            _ = Signal.just(8).emit(to: replay)
            _ = Signal.just(9).emit(to: plainReplay)
            _ = Signal.just(10).emit(to: behavior)
        }
        test.start()
        XCTAssertEqual(behavior.value, 10)
        XCTAssertEqual(published, [2, 7])
        var replayed: [Int?] = []
        _ = replay.subscribe(onNext: { replayed.append($0) })
        XCTAssertEqual(replayed, [5, 5, 8])
        var plain: [Int] = []
        _ = plainReplay.subscribe(onNext: { plain.append($0) })
        XCTAssertEqual(plain, [6, 9])
        watching.dispose()
    }

    func testBindToObserversForwardsCompletionAndErrors() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
        let first = scheduler.createObserver(Int.self)
        let second = scheduler.createObserver(Int.self)
        scheduler.scheduleAt(200) { _ = xs.bind(to: first, second) }
        scheduler.start()
        XCTAssertEqual(first.events, [.next(210, 1), .completed(220)])
        XCTAssertEqual(second.events, first.events)

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .error(220, TestError.boom)])
        let optional = other.createObserver(Int?.self)
        other.scheduleAt(200) { _ = ys.bind(to: optional) }
        other.start()
        XCTAssertEqual(optional.events, [.next(210, 1), .error(220, TestError.boom)])
    }
}
