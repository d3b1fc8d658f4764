@testable import BinderyRx
import Foundation
import XCTest

/// The pool behind every session's scheduler: bounded threads, serial turns,
/// no scheduler starved, and stuck workers compensated up to a hard limit.
final class ExecutorPoolTests: XCTestCase {
    func testAThousandBusySchedulersShareThePoolsThreads() {
        let pool = ExecutorPool(threads: 3)
        let schedulers = (0..<1_000).map { SerialScheduler(label: "s\($0)", pool: pool) }
        let done = DispatchGroup()
        for scheduler in schedulers {
            for _ in 0..<20 {
                done.enter()
                scheduler.async { done.leave() }
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(pool.threadCount, 3, "20,000 jobs on 1,000 schedulers that never block need no more than the pool's threads")
    }

    func testTurnsOfOneSchedulerNeverOverlapAndKeepEachSendersOrder() {
        let pool = ExecutorPool(threads: 4)
        let scheduler = SerialScheduler(label: "serial", pool: pool)
        var running = 0, overlaps = 0
        var seen: [Int: [Int]] = [:]
        let done = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: 4) { sender in
            for index in 0..<500 {
                done.enter()
                scheduler.async {
                    running += 1
                    if running > 1 { overlaps += 1 }
                    seen[sender, default: []].append(index)
                    running -= 1
                    done.leave()
                }
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(scheduler.sync { overlaps }, 0)
        XCTAssertEqual(scheduler.sync { seen.values.map { $0 == Array(0..<500) } }, [true, true, true, true])
    }

    func testAFloodedSchedulerDoesNotStarveTheOthers() {
        let pool = ExecutorPool(threads: 1)
        let flooded = SerialScheduler(label: "flooded", pool: pool)
        let other = SerialScheduler(label: "other", pool: pool)
        let release = DispatchSemaphore(value: 0)
        var floodRunsBeforeOther = 0, otherRan = false
        let otherDone = DispatchSemaphore(value: 0)
        // Hold the only worker so that everything below queues up first.
        flooded.async { release.wait() }
        // Each flood job queues the next one: the flood never ends by itself.
        func flood() {
            flooded.async {
                if !otherRan { floodRunsBeforeOther += 1 }
                if floodRunsBeforeOther < 10_000 { flood() }
            }
        }
        flood()
        other.async {
            otherRan = true
            otherDone.signal()
        }
        release.signal()
        XCTAssertEqual(otherDone.wait(timeout: .now() + 10), .success)
        XCTAssertLessThan(flooded.sync { floodRunsBeforeOther }, 10, "the other scheduler waited for one turn of the flooded one, not for the flood")
    }

    func testWorkArrivingTogetherForOneIdleWorkerIsNotLostWhenTheFirstBlocks() {
        for _ in 0..<20 {
            let pool = ExecutorPool(threads: 1, maxThreads: 2, stallThreshold: .milliseconds(10))
            let warm = SerialScheduler(label: "warm", pool: pool)
            warm.sync {} // the one worker exists and waits
            let gate = DispatchSemaphore(value: 0), ran = DispatchSemaphore(value: 0)
            // Both arrive before the idle worker wakes (most of the time): it takes
            // the first, which blocks; the second must not wait for it.
            SerialScheduler(label: "blocks", pool: pool).async { gate.wait() }
            SerialScheduler(label: "quick", pool: pool).async { ran.signal() }
            XCTAssertEqual(ran.wait(timeout: .now() + 2), .success, "work queued behind a blocked worker ran on an added one")
            gate.signal()
        }
    }

    func testWorkersStuckInTheirWorkAreCompensatedUpToTheLimit() {
        let pool = ExecutorPool(threads: 2, maxThreads: 4, stallThreshold: .milliseconds(20))
        let gate = DispatchSemaphore(value: 0), entered = DispatchSemaphore(value: 0)
        defer { for _ in 0..<8 { gate.signal() } }
        let stuck = (0..<6).map { SerialScheduler(label: "stuck\($0)", pool: pool) }
        // The first two hold both workers.
        for scheduler in stuck.prefix(2) {
            scheduler.async {
                entered.signal()
                gate.wait()
            }
        }
        for _ in 0..<2 { XCTAssertEqual(entered.wait(timeout: .now() + 5), .success) }

        // Work waits behind stuck workers: the pool adds one, and the work runs.
        let free = SerialScheduler(label: "free", pool: pool)
        let ran = DispatchSemaphore(value: 0)
        free.async { ran.signal() }
        XCTAssertEqual(ran.wait(timeout: .now() + 5), .success, "work behind stuck workers runs on an added worker")

        // More stuck work takes the pool to its limit and no further.
        for scheduler in stuck.dropFirst(2) {
            scheduler.async {
                entered.signal()
                gate.wait()
            }
        }
        for _ in 0..<2 { XCTAssertEqual(entered.wait(timeout: .now() + 5), .success) }
        XCTAssertEqual(entered.wait(timeout: .now() + 0.3), .timedOut, "the last two wait: the pool is at its limit")
        XCTAssertEqual(pool.threadCount, 4)

        for _ in 0..<6 { gate.signal() }
        for _ in 0..<2 { XCTAssertEqual(entered.wait(timeout: .now() + 5), .success, "queued work runs once workers are free") }
    }

    func testABurstOfWorkWakesOneSleeperAtATimeNotOnePerJob() {
        let pool = ExecutorPool(threads: 4, maxThreads: 4)
        // All four workers exist and sleep.
        let gate = DispatchSemaphore(value: 0), entered = DispatchSemaphore(value: 0)
        for index in 0..<4 {
            SerialScheduler(label: "warm\(index)", pool: pool).async {
                entered.signal()
                gate.wait()
            }
        }
        for _ in 0..<4 { XCTAssertEqual(entered.wait(timeout: .now() + 5), .success) }
        for _ in 0..<4 { gate.signal() }
        let deadline = Date(timeIntervalSinceNow: 5)
        while pool.idleCount < 4, Date() < deadline { usleep(1_000) }
        XCTAssertEqual(pool.idleCount, 4)

        // 200 jobs queued at once, each on its own scheduler (200 requests on
        // 200 sessions). Each holds its worker until the previous one is done,
        // so the four workers are all woken, and then never sleep until the end.
        let before = pool.wakeUps
        let baton = DispatchSemaphore(value: 0), done = DispatchGroup()
        for index in 0..<200 {
            done.enter()
            SerialScheduler(label: "burst\(index)", pool: pool).async {
                baton.wait()
                baton.signal()
                done.leave()
            }
        }
        baton.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertLessThanOrEqual(pool.wakeUps - before, 4, "one wake-up per sleeping worker, not one per job queued while any slept")
    }

    func testWorkersCarryThePoolsNameWhereOperatorsLook() throws {
        func comm(of pool: ExecutorPool) throws -> String {
            try SerialScheduler(label: "named", pool: pool).sync {
                try String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
            }
        }
        XCTAssertEqual(try comm(of: ExecutorPool(threads: 1)), "bindery.exec.1\n")
        XCTAssertEqual(try comm(of: ExecutorPool(threads: 1, name: "a.pool.with.a.long.name")), "a.pool.with.a.l\n",
                       "a name over Linux's 15 bytes is cut to fit, not refused")
    }
}
