import Foundation

/// State that only one thread at a time may touch, behind a pthread mutex.
///
/// The shape of `Synchronization.Mutex`, for the hot paths of streams: on
/// Linux that type locks with futexes in uninstrumented code, so
/// ThreadSanitizer sees no ordering through it and reports races that are
/// none; a pthread mutex it understands.
///
/// The mutex and, right after it, the state share one block, so a lock's
/// first touch brings the state's first fields into the cache with it (a
/// stream's memory is cold by the time its next event comes). The value holds
/// the two pointers itself, so its owner reaches the block in one step, and
/// `withLock` pays no runtime exclusivity check and needs no layout of a
/// generic type at run time. Copies share the state, as a class would; the
/// block goes with the last of them.
///
/// The block is not aligned to a cache line: measured at 10,000 streams, that
/// cost a quarter more user time (the allocator's aligned blocks), though it
/// saved simulated cache misses.
///
/// The state may be noncopyable: a right held under the lock, moved in and out
/// of it, never duplicated (a connection's `ConnectionSleep`).
///
/// Thread safety: `withLock` may be called from any thread; never from inside itself.
package struct Locked<State: ~Copyable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let state: UnsafeMutablePointer<State>
    /// Owns the block; `withLock` never touches it.
    private let block: Block

    /// `initial`, guarded.
    package init(_ initial: consuming State) {
        block = Block(initial)
        mutex = block.mutex
        state = block.state
    }

    /// Runs `body` with the state, holding the lock.
    package func withLock<Result: ~Copyable>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }

    /// The memory of the mutex and the state, and their lifetime.
    private final class Block {
        let mutex: UnsafeMutablePointer<pthread_mutex_t>
        let state: UnsafeMutablePointer<State>

        init(_ initial: consuming State) {
            let stateOffset = Self.stateOffset
            let raw = UnsafeMutableRawPointer.allocate(
                byteCount: stateOffset + MemoryLayout<State>.size,
                alignment: max(MemoryLayout<pthread_mutex_t>.alignment, MemoryLayout<State>.alignment))
            mutex = raw.bindMemory(to: pthread_mutex_t.self, capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
            state = (raw + stateOffset).bindMemory(to: State.self, capacity: 1)
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
    }
}
