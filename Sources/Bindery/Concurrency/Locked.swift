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
    /// The mutex and the state, in one allocation: a lock's first touch brings
    /// the state into the cache with it (a stream's objects are cold by the
    /// time its next event comes).
    private struct Storage {
        var mutex = pthread_mutex_t()
        var state: State
    }

    private let storage: UnsafeMutablePointer<Storage>

    /// `initial`, guarded.
    package init(_ initial: State) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: Storage(state: initial))
        pthread_mutex_init(&storage.pointee.mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(&storage.pointee.mutex)
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// Runs `body` with the state, holding the lock.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(&storage.pointee.mutex)
        defer { pthread_mutex_unlock(&storage.pointee.mutex) }
        return try body(&storage.pointee.state)
    }
}
