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
    /// The mutex and, right after it, the state: one allocation, so a lock's
    /// first touch brings the state into the cache with it (a stream's objects
    /// are cold by the time its next event comes). Two plain pointers into it,
    /// so `withLock` needs no layout of a generic type at run time.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let state: UnsafeMutablePointer<State>

    /// `initial`, guarded.
    package init(_ initial: State) {
        let stateOffset = Self.stateOffset
        let block = UnsafeMutableRawPointer.allocate(byteCount: stateOffset + MemoryLayout<State>.size,
                                                     alignment: max(MemoryLayout<pthread_mutex_t>.alignment, MemoryLayout<State>.alignment))
        mutex = block.bindMemory(to: pthread_mutex_t.self, capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        state = (block + stateOffset).bindMemory(to: State.self, capacity: 1)
        state.initialize(to: initial)
    }

    /// Where the state starts in the block: after the mutex, aligned.
    private static var stateOffset: Int {
        let alignment = MemoryLayout<State>.alignment
        return (MemoryLayout<pthread_mutex_t>.size + alignment - 1) / alignment * alignment
    }

    deinit {
        state.deinitialize(count: 1)
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        UnsafeMutableRawPointer(mutex).deallocate()
    }

    /// Runs `body` with the state, holding the lock.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }
}
