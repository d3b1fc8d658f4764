import Foundation

/// State that only one thread at a time may touch, behind a pthread mutex.
///
/// The shape of `Synchronization.Mutex`, for the hot paths of streams: on
/// Linux that type locks with futexes in uninstrumented code, so
/// ThreadSanitizer sees no ordering through it and reports races that are
/// none; a pthread mutex it understands. The state lives behind a pointer, so
/// `withLock` pays no runtime exclusivity check.
///
/// Thread safety: `withLock` may be called from any thread; never from inside itself.
package final class Locked<State>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let state: UnsafeMutablePointer<State>

    /// `initial`, guarded.
    package init(_ initial: State) {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        state = .allocate(capacity: 1)
        state.initialize(to: initial)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the state, holding the lock.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }
}
