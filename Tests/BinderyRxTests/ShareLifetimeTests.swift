import BinderyRx
import BinderyRxTest
import XCTest

/// A subscription keeps its chain alive, even when the observable it came from was a temporary.
final class ShareLifetimeTests: XCTestCase {
    func testASharedTemporaryKeepsDeliveringToItsSubscribers() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = BehaviorRelay(value: 1)
        let observer = scheduler.createObserver(Int.self)
        let subscription = relay.asObservable().observe(on: scheduler).share(replay: 1).subscribe(observer)
        scheduler.scheduleAt(10) { relay.accept(2) }
        scheduler.scheduleAt(20) { subscription.dispose() }
        scheduler.scheduleAt(30) { relay.accept(3) }
        scheduler.start()
        XCTAssertEqual(observer.events, [.next(1, 1), .next(11, 2)])
    }

    func testATemporaryDriverMappedAndDrivenUnderTheMockedSharingScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let disposeBag = DisposeBag()
        let observer = scheduler.createObserver(Int.self)
        SharingScheduler.mock(scheduler: scheduler) {
            let relay = BehaviorRelay(value: 1)
            relay.asDriver().map { $0 * 10 }.drive(observer).disposed(by: disposeBag)
            scheduler.scheduleAt(10) { relay.accept(2) }
            scheduler.start()
        }
        XCTAssertEqual(observer.events, [.next(1, 10), .next(11, 20)])
    }
}
