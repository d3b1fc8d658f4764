import Dispatch
import Foundation
import Synchronization

/// SIGINT and SIGTERM, caught rather than fatal, from `init` to `cancel`:
/// `isRequested` once either came. What `BinderyApp.run` and the dev loop
/// both stop on.
final class StopSignals: @unchecked Sendable {
    private let requested = Atomic<Bool>(false)
    /// Set in `init`, cancelled in `cancel`; never touched otherwise.
    private var sources: [DispatchSourceSignal] = []

    /// Catches both, their handlers run on `queue`.
    init(handledOn queue: DispatchQueue) {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in self?.requested.store(true, ordering: .relaxed) }
            source.resume()
            return source
        }
    }

    /// Whether SIGINT or SIGTERM came.
    var isRequested: Bool { requested.load(ordering: .relaxed) }

    /// No longer caught here (the signals stay ignored: the process is ending).
    func cancel() { sources.forEach { $0.cancel() } }
}
