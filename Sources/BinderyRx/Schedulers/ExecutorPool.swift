import Foundation

/// The threads that run `SerialScheduler`s' work: one bounded pool shared by
/// every scheduler made on it (every Bindery session), however many there are.
///
/// Schedulers with work wait in one FIFO; a worker takes the first, runs the
/// work it has queued (one turn), and goes on to the next, so a busy scheduler
/// cannot starve the others and nothing ever waits for a thread of its own.
///
/// At most one sleeping worker is being woken at a time: new work wakes one
/// only if none is already on its way, and a worker that takes work and sees
/// more waiting wakes the next. So a steady trickle of short turns (a request
/// each) keeps one or two workers busy rather than waking every idle worker per
/// turn, each of which would find nothing left and sleep again.
///
/// Work that blocks (a ViewModel waiting on I/O) holds its worker. When more
/// schedulers wait than workers are idle and no turn has finished for
/// `stallThreshold`, the pool adds a worker, up to `maxThreads`; a worker beyond `threads` leaves once it has
/// had nothing to do for a few seconds. So the thread count stays between
/// `threads` and `maxThreads` whatever the load.
///
/// Thread safety: every method may be called from any thread.
public final class ExecutorPool: @unchecked Sendable {
    /// The pool every scheduler uses unless given another: a worker per CPU the process
    /// may use (`UsableCPUs`) + 2, at most 16 more.
    public static let shared = ExecutorPool(threads: UsableCPUs.count + 2)

    /// The workers kept while the pool is idle.
    public let threads: Int
    /// The most workers the pool ever runs, stalled ones included.
    public let maxThreads: Int
    /// How long every worker must be stuck, with work waiting, before another is added.
    public let stallThreshold: Duration

    private let name: String
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var ready: [SerialScheduler] = []
    private var readyHead = 0
    private var workers = 0
    /// Workers asleep in `condition.wait`, including those signalled but not yet awake.
    private var idle = 0
    /// A signal sent whose worker has not woken yet (0 or 1): new work needs
    /// no other while one is on its way.
    private var waking = 0
    private var turns: UInt64 = 0
    /// Signals sent to sleeping workers, ever (for tests).
    private var signals: UInt64 = 0
    private var monitorRunning = false

    /// A pool of `threads` workers, growing to `maxThreads` only while workers are stalled.
    ///
    /// - Parameters:
    ///   - threads: Workers kept while idle; started on first use.
    ///   - maxThreads: The hard limit (default: `threads` + 16).
    ///   - stallThreshold: How long work must wait on stuck workers before a worker is added.
    ///   - name: The threads' name prefix, for debuggers and `/proc` (Linux keeps 15 bytes: `bindery.exec.12`).
    public init(threads: Int, maxThreads: Int? = nil, stallThreshold: Duration = .milliseconds(100), name: String = "bindery.exec") {
        precondition(threads >= 1, "an executor pool needs at least one thread")
        self.threads = threads
        self.maxThreads = max(threads, maxThreads ?? threads + 16)
        self.stallThreshold = stallThreshold
        self.name = name
    }

    /// The number of worker threads now.
    public var threadCount: Int { condition.withLock { workers } }

    /// Workers asleep waiting for work now (for tests).
    var idleCount: Int { condition.withLock { idle } }

    /// Signals ever sent to wake a sleeping worker (for tests).
    var wakeUps: UInt64 { condition.withLock { signals } }

    /// Queues `scheduler`, which has work and is not queued yet.
    func submit(_ scheduler: SerialScheduler) {
        condition.lock()
        ready.append(scheduler)
        wakeOneLocked()
        // `idle` still counts workers signalled but not yet awake: compare, or
        // work arriving together for one idle worker waits behind the first.
        if waitingLocked > idle {
            if workers < threads {
                startWorkerLocked()
            } else if !monitorRunning, workers < maxThreads {
                monitorRunning = true
                Thread { [self] in
                    nameCurrentThread("\(name).monitor")
                    watchForStalls()
                }.start()
            }
        }
        condition.unlock()
    }

    private var hasReadyLocked: Bool { readyHead < ready.count }

    /// Wakes a sleeping worker for waiting work, unless one is already waking.
    private func wakeOneLocked() {
        guard waking == 0, idle > 0 else { return }
        waking += 1
        signals &+= 1
        condition.signal()
    }

    /// Schedulers waiting for a worker.
    private var waitingLocked: Int { ready.count - readyHead }

    private func takeReadyLocked() -> SerialScheduler {
        let scheduler = ready[readyHead]
        readyHead += 1
        // Compact now and then: removing from the front of an array is linear.
        if readyHead == ready.count {
            ready.removeAll(keepingCapacity: true)
            readyHead = 0
        } else if readyHead >= 1024, readyHead * 2 >= ready.count {
            ready.removeFirst(readyHead)
            readyHead = 0
        }
        return scheduler
    }

    private func startWorkerLocked() {
        workers += 1
        let label = "\(name).\(workers)"
        // Named from inside: a Linux thread otherwise keeps its creator's name.
        Thread { [self] in
            nameCurrentThread(label)
            work()
        }.start()
    }

    private func work() {
        condition.lock()
        while true {
            while !hasReadyLocked {
                idle += 1
                // Only a worker beyond `threads` ever times out: the others sleep until needed.
                let isExtra = workers > threads
                let signalled = isExtra ? condition.wait(until: Date(timeIntervalSinceNow: 5)) : { condition.wait(); return true }()
                idle -= 1
                waking = max(0, waking - 1)
                if !signalled, !hasReadyLocked, workers > threads {
                    workers -= 1
                    condition.unlock()
                    return
                }
            }
            let scheduler = takeReadyLocked()
            // More is waiting: the next sleeper comes for it while this one runs.
            if hasReadyLocked { wakeOneLocked() }
            condition.unlock()
            scheduler.runTurn()
            condition.lock()
            turns &+= 1
        }
    }

    /// Runs while work waits for a worker: adds one when no turn finished for a whole threshold.
    private func watchForStalls() {
        let pause = stallThreshold.components
        let microseconds = UInt32(clamping: pause.seconds * 1_000_000 + pause.attoseconds / 1_000_000_000_000)
        condition.lock()
        while waitingLocked > idle, workers < maxThreads {
            let seen = turns
            condition.unlock()
            usleep(microseconds)
            condition.lock()
            if waitingLocked > idle, turns == seen, workers < maxThreads { startWorkerLocked() }
        }
        monitorRunning = false
        condition.unlock()
    }
}
