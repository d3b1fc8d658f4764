import Foundation

/// Every reactor's `ReactorStorage`, by the reactor's identity.
///
/// ReactorKit's table drops a reactor's entry as the reactor deallocates, through a hook
/// it attaches with `objc_setAssociatedObject`. Swift on Linux has no such hook: nothing
/// outside an object learns that it deinitialized. So an entry holds its reactor weakly
/// and the table sweeps out the entries whose reactor reads nil, once it has served as
/// many lookups as it holds entries (at least `sweepInterval`): each lookup pays O(1) for
/// sweeping, and a gone reactor's streams are released within that many lookups of any
/// reactor. Until then they stay, unobservable (nothing can reach them), and do nothing:
/// their every step holds the reactor weakly.
///
/// A reactor that is gone leaves its identity free for a new object; the table tells them
/// apart by the entry's weak reference, so a new reactor never sees an old one's streams.
///
/// Thread safety: any thread. The lock is held for dictionary work only; the entries swept
/// are released after it is unlocked, since releasing a stream disposes its subscriptions.
final class ReactorStorageTable: @unchecked Sendable {
    /// The table every reactor uses.
    static let shared = ReactorStorageTable()

    /// Lookups between sweeps while the table holds fewer entries than this.
    static let sweepInterval = 64

    private let lock = NSLock()
    private var entries: [ObjectIdentifier: ReactorStorage] = [:]
    private var lookupsSinceSweep = 0

    /// How many entries the table holds, gone reactors' included until they are swept.
    var count: Int { lock.withLock { entries.count } }

    /// Whether the table holds an entry for `reactor` (its storage was made and not let go).
    func holds(_ reactor: AnyObject) -> Bool {
        lock.withLock { entries[ObjectIdentifier(reactor)]?.reactor === reactor }
    }

    /// The storage of `reactor`, made on first use.
    func storage(for reactor: AnyObject) -> ReactorStorage {
        let id = ObjectIdentifier(reactor)
        var released: [ReactorStorage] = []
        let storage = lock.withLock { () -> ReactorStorage in
            lookupsSinceSweep += 1
            if lookupsSinceSweep >= max(entries.count, Self.sweepInterval) {
                released = sweep()
            }
            if let storage = entries[id], storage.reactor === reactor {
                return storage
            }
            let storage = ReactorStorage(reactor: reactor)
            if let previous = entries.updateValue(storage, forKey: id) {
                released.append(previous)
            }
            return storage
        }
        // `released` goes here, with the lock no longer held.
        released.removeAll()
        return storage
    }

    /// Drops `reactor`'s entry now, rather than at a sweep after it has gone: its owner
    /// (a served reactor's session) says it is done with it. A later use makes a new one.
    func release(_ reactor: AnyObject) {
        let id = ObjectIdentifier(reactor)
        let released = lock.withLock { () -> ReactorStorage? in
            guard let storage = entries[id], storage.reactor === reactor else { return nil }
            return entries.removeValue(forKey: id)
        }
        // `released` goes as this returns, with the lock no longer held: its stream's subscriptions are disposed.
        _ = released
    }

    /// Removes the entries whose reactor is gone and returns them; call with `lock` held.
    private func sweep() -> [ReactorStorage] {
        lookupsSinceSweep = 0
        var gone: [ReactorStorage] = []
        // One pass: a reactor may go while the table is swept, and what leaves the
        // dictionary must be in `gone` so that it is not released under the lock.
        entries = entries.filter { entry in
            if entry.value.reactor != nil { return true }
            gone.append(entry.value)
            return false
        }
        return gone
    }
}
