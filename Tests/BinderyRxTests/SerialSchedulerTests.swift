import BinderyRx
import Dispatch
import XCTest

final class SerialSchedulerTests: XCTestCase {
    func testWorkScheduledWhileWorkRunsIsTrampolined() {
        let scheduler = SerialScheduler(label: "test.trampoline")
        var log: [String] = []
        scheduler.sync {
            _ = scheduler.schedule(()) { _ in
                log.append("inner")
                _ = scheduler.schedule(()) { _ in
                    log.append("innermost")
                    return Disposables.create()
                }
                log.append("inner end")
                return Disposables.create()
            }
            log.append("outer end")
        }
        XCTAssertEqual(log, ["outer end", "inner", "inner end", "innermost"])
    }

    /// An event emitted from inside a turn while an earlier one, emitted from
    /// another thread, waits for a later turn must not overtake it (RxSwift's
    /// `MainScheduler` runs inline only when nothing is enqueued): a session
    /// showing a store's relay would otherwise publish an older value last.
    func testAnEventFromInsideATurnDoesNotOvertakeOneQueuedBeforeIt() {
        let scheduler = SerialScheduler(label: "test.order")
        let subject = PublishSubject<Int>()
        let lock = NSLock()
        var received: [Int] = []
        let both = expectation(description: "both delivered")
        let subscription = subject.observe(on: scheduler).subscribe(onNext: { value in
            let count = lock.withLock {
                received.append(value)
                return received.count
            }
            if count == 2 { both.fulfill() }
        })
        scheduler.async {
            // In a turn: 1 comes from another thread and waits for the next turn; then 2 from here.
            let queued = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                subject.onNext(1)
                queued.signal()
            }
            queued.wait()
            subject.onNext(2)
        }
        wait(for: [both], timeout: 5)
        XCTAssertEqual(lock.withLock { received }, [1, 2])
        subscription.dispose()
    }

    func testSyncReturnsAfterEverythingItCaused() {
        let scheduler = SerialScheduler(label: "test.sync")
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = subject.observe(on: scheduler).map { $0 * 2 }.observe(on: scheduler).subscribe(onNext: { received.append($0) })
        scheduler.sync { subject.onNext(1); subject.onNext(2) }
        XCTAssertEqual(received, [2, 4])
        subscription.dispose()
    }

    func testCancelledTrampolinedWorkDoesNotRun() {
        let scheduler = SerialScheduler(label: "test.cancel")
        var ran = false
        scheduler.sync {
            scheduler.schedule(()) { _ in
                ran = true
                return Disposables.create()
            }.dispose()
        }
        XCTAssertFalse(ran)
    }

    func testSyncFromItsOwnQueueRunsInline() {
        let scheduler = SerialScheduler(label: "test.reentrant")
        let value = scheduler.sync { scheduler.sync { 42 } }
        XCTAssertEqual(value, 42)
        XCTAssertTrue(scheduler.sync { scheduler.isCurrent })
        XCTAssertFalse(scheduler.isCurrent)
    }

    func testWorkFromOtherThreadsRunsSeriallyInOrderPerThread() {
        let scheduler = SerialScheduler(label: "test.threads")
        var count = 0
        let done = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 {
                done.enter()
                _ = scheduler.schedule(()) { _ in
                    count += 1
                    done.leave()
                    return Disposables.create()
                }
            }
        }
        done.wait()
        XCTAssertEqual(scheduler.sync { count }, 1600)
    }

    func testPeriodicFiresWhileOneWaitsForItsTurnAreCoalesced() {
        let scheduler = SerialScheduler(label: "test.periodic")
        let release = DispatchSemaphore(value: 0), started = DispatchSemaphore(value: 0)
        var runs = 0
        let timer = scheduler.schedulePeriodic(0, startAfter: .milliseconds(1), period: .milliseconds(1)) { state in
            runs += 1
            if runs == 1 {
                started.signal()
                release.wait()
            }
            return state
        }
        XCTAssertEqual(started.wait(timeout: .now() + 5), .success)
        usleep(50_000) // about 50 fires while the first action holds the turn
        release.signal()
        let runsBeforeDispose = scheduler.sync { () -> Int in
            timer.dispose()
            return runs
        }
        XCTAssertLessThanOrEqual(runsBeforeDispose, 3, "fires that came during a long action ran once, not one by one")
    }
}
