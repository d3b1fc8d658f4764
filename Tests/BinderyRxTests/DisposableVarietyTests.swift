import BinderyRx
import BinderyRxTest
import Foundation
import XCTest

/// `RefCountDisposable`, `ScheduledDisposable` and `OperationQueueScheduler`.
final class DisposableVarietyTests: XCTestCase {
    func testRefCountDisposableWaitsForEveryRetain() {
        let underlying = BooleanDisposable()
        let refCount = RefCountDisposable(disposable: underlying)
        let first = refCount.retain()
        let second = refCount.retain()
        refCount.dispose()
        first.dispose()
        first.dispose()
        XCTAssertFalse(underlying.isDisposed, "one retain is still held")
        second.dispose()
        XCTAssertTrue(underlying.isDisposed)
        XCTAssertTrue(refCount.isDisposed)
        refCount.retain().dispose()
    }

    func testScheduledDisposableDisposesOnItsSchedulerOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        var disposedAt: [TestTime] = []
        let scheduled = ScheduledDisposable(scheduler: scheduler, disposable: Disposables.create { disposedAt.append(scheduler.clock) })
        scheduler.scheduleAt(100) {
            scheduled.dispose()
            scheduled.dispose()
        }
        scheduler.start()
        XCTAssertEqual(disposedAt, [101])
        XCTAssertTrue(scheduled.isDisposed)
    }

    func testOperationQueueSchedulerRunsOnItsQueue() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let scheduler = OperationQueueScheduler(operationQueue: queue)
        let done = expectation(description: "delivered")
        var received: [Int] = []
        _ = Observable.of(1, 2, 3).observe(on: scheduler).subscribe(onNext: {
            XCTAssertNotNil(OperationQueue.current)
            received.append($0)
        }, onCompleted: { done.fulfill() })
        wait(for: [done], timeout: 10)
        XCTAssertEqual(received, [1, 2, 3])
    }
}
