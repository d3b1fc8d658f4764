import Bindery
import Dispatch
import Foundation

/// The benchmark's ticker, the Bindery twin of the floor's: one shared session
/// whose signal `tick` carries the CLOCK_MONOTONIC time in nanoseconds when it
/// was emitted, every `period`. A load client on the same machine measures each
/// event's latency as its own CLOCK_MONOTONIC time minus that value.
final class BenchTickViewModel {
    let tick: Signal<UInt64>

    init(periodMilliseconds: Int) {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "bindery.bench-tick")
        tick = Observable<Int>.interval(.milliseconds(periodMilliseconds), scheduler: scheduler)
            .map { _ in monotonicNanoseconds() }
            .asSignal(onErrorSignalWith: .empty())
    }

    /// The name it is registered under: `/api/bench-tick`.
    static let name = "bench-tick"

    /// Registers the shared ticker with `application`.
    static func register(in application: Application, periodMilliseconds: Int) {
        application.register(
            name, shared: true,
            summary: "Benchmark: a shared ticker whose signal `tick` is the CLOCK_MONOTONIC time in ns."
        ) { _ in
            BenchTickViewModel(periodMilliseconds: periodMilliseconds)
        }
    }
}

/// CLOCK_MONOTONIC in nanoseconds, the clock the load client and the floor read.
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
