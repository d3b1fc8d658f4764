import Bindery

/// Looks up RxSwift's operators by name, answering on its own background
/// scheduler after a latency, as a search API answers on a network thread.
///
/// Its index is built once, as the app starts: on the background scheduler,
/// then handed over on `MainScheduler.instance`, as an iOS app warms a cache
/// and publishes it on the main thread. Outside any session that is the main
/// queue: searches wait for the index, so in a served app they answer only if
/// the main queue runs (`BinderyApp.run()` runs it).
final class OperatorSearchService: @unchecked Sendable {
    private let scheduler: SchedulerType
    private let latency: RxTimeInterval
    /// The operators' names, lower-cased, once built.
    private let index = ReplaySubject<[(name: String, key: String)]>.create(bufferSize: 1)

    init(scheduler: SchedulerType, latency: RxTimeInterval) {
        self.scheduler = scheduler
        self.latency = latency
        _ = delayed(.milliseconds(0), on: scheduler) { Self.operators.map { (name: $0, key: $0.lowercased()) } }
            .observe(on: MainScheduler.instance)
            .subscribe(onNext: { [index] in index.onNext($0) })
    }

    /// The operators whose name contains `query` (any case), best first: those that start with it.
    func search(_ query: String) -> Observable<[String]> {
        let wanted = query.lowercased()
        return index.take(1).flatMap { [scheduler, latency] index in
            delayed(latency, on: scheduler) {
                let found = index.filter { $0.key.contains(wanted) }
                return (found.filter { $0.key.hasPrefix(wanted) } + found.filter { !$0.key.hasPrefix(wanted) }).map(\.name)
            }
        }
    }

    static let operators = [
        "amb", "buffer", "catch", "combineLatest", "concat", "concatMap", "debounce", "delay", "delaySubscription",
        "distinctUntilChanged", "do", "elementAt", "filter", "flatMap", "flatMapFirst", "flatMapLatest", "groupBy", "ignoreElements",
        "map", "materialize", "merge", "observe(on:)", "reduce", "replay", "retry", "sample", "scan", "share", "skip", "skipUntil",
        "skipWhile", "startWith", "subscribe(on:)", "switchLatest", "take", "takeLast", "takeUntil", "takeWhile", "throttle", "timeout",
        "toArray", "window", "withLatestFrom", "zip",
    ]
}
