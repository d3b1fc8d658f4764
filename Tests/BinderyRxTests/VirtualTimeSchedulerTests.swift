import BinderyRx
import Foundation
import XCTest

/// `VirtualTimeScheduler` and `HistoricalScheduler` run their work in time order and move the clock with it.
final class VirtualTimeSchedulerTests: XCTestCase {
    private struct TenSeconds: VirtualTimeConverterType {
        func convertFromVirtualTime(_ virtualTime: Int) -> RxTime { Date(timeIntervalSince1970: TimeInterval(virtualTime) * 10) }
        func convertToVirtualTime(_ time: RxTime) -> Int { Int(time.timeIntervalSince1970 / 10) }
        func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval { TimeInterval(virtualTimeInterval * 10) }
        func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int { Int(timeInterval / 10) }
        func offsetVirtualTime(_ time: Int, offset: Int) -> Int { time + offset }
        func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
            lhs < rhs ? .lessThan : lhs > rhs ? .greaterThan : .equal
        }
    }

    func testRunsInTimeOrderThenSchedulingOrder() {
        let scheduler = VirtualTimeScheduler(initialClock: 0, converter: TenSeconds())
        var ran: [String] = []
        _ = scheduler.scheduleRelative((), dueTime: .seconds(50)) { _ in
            ran.append("b@\(scheduler.clock)")
            _ = scheduler.schedule(()) { _ in ran.append("d@\(scheduler.clock)"); return Disposables.create() }
            return Disposables.create()
        }
        _ = scheduler.scheduleRelative((), dueTime: .seconds(10)) { _ in ran.append("a@\(scheduler.clock)"); return Disposables.create() }
        _ = scheduler.scheduleRelativeVirtual((), dueTime: 5) { _ in ran.append("c@\(scheduler.clock)"); return Disposables.create() }
        let cancelled = scheduler.scheduleAbsoluteVirtual((), time: 3) { _ in ran.append("cancelled"); return Disposables.create() }
        cancelled.dispose()
        scheduler.start()
        XCTAssertEqual(ran, ["a@1", "b@5", "c@5", "d@5"])
        XCTAssertEqual(scheduler.now, Date(timeIntervalSince1970: 50))
    }

    func testAdvanceToRunsWhatIsDueAndStopEndsAStart() {
        let scheduler = VirtualTimeScheduler(initialClock: 0, converter: TenSeconds())
        var ran: [Int] = []
        for time in [2, 4, 6, 8] {
            _ = scheduler.scheduleAbsoluteVirtual((), time: time) { _ in
                ran.append(time)
                if time == 6 { scheduler.stop() }
                return Disposables.create()
            }
        }
        scheduler.advanceTo(5)
        XCTAssertEqual(ran, [2, 4])
        XCTAssertEqual(scheduler.clock, 5)
        scheduler.start()
        XCTAssertEqual(ran, [2, 4, 6])
        scheduler.sleep(10)
        XCTAssertEqual(scheduler.clock, 16)
        scheduler.start()
        XCTAssertEqual(ran, [2, 4, 6, 8])
        XCTAssertEqual(scheduler.clock, 16, "work due in the past runs without moving the clock back")
    }

    func testDebugDescriptionShowsTheClockAndWhatIsDue() {
        let scheduler = VirtualTimeScheduler(initialClock: 0, converter: TenSeconds())
        for time in [3, 1, 2] {
            _ = scheduler.scheduleAbsoluteVirtual((), time: time) { _ in Disposables.create() }
        }
        scheduler.advanceTo(1)
        XCTAssertEqual(scheduler.debugDescription, "VirtualTimeScheduler(clock: 1, due: [2, 3])")
    }

    func testHistoricalSchedulerDrivesOperatorsByDate() {
        let start = Date(timeIntervalSince1970: 1_000)
        let scheduler = HistoricalScheduler(initialClock: start)
        var received: [(Int, TimeInterval)] = []
        _ = Observable<Int>.interval(.seconds(30), scheduler: scheduler).take(3)
            .subscribe(onNext: { received.append(($0, scheduler.now.timeIntervalSince(start))) })
        scheduler.start()
        XCTAssertEqual(received.map(\.0), [0, 1, 2])
        XCTAssertEqual(received.map(\.1), [30, 60, 90])
    }
}
