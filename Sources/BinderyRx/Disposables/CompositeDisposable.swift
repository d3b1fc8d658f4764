import Synchronization

/// A group of disposables disposed together; one added after disposal is disposed at once.
public final class CompositeDisposable: Cancelable, @unchecked Sendable {
    /// Identifies a disposable inside the group so it can be removed.
    public struct DisposeKey: Hashable { fileprivate let value: Int }

    private struct State {
        var disposables: [Int: Disposable]? = [:]
        var nextKey = 0
    }

    private let state = Mutex(State())

    /// An empty group.
    public init() {}

    /// A group holding both.
    public convenience init(_ disposable1: Disposable, _ disposable2: Disposable) {
        self.init(disposables: [disposable1, disposable2])
    }

    /// A group holding all three.
    public convenience init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) {
        self.init(disposables: [disposable1, disposable2, disposable3])
    }

    /// A group holding all of them.
    public convenience init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable, _ disposable4: Disposable, _ disposables: Disposable...) {
        self.init(disposables: [disposable1, disposable2, disposable3, disposable4] + disposables)
    }

    /// A group holding `disposables`.
    public init(disposables: [Disposable]) {
        state.withLock { state in
            for disposable in disposables {
                state.disposables?[state.nextKey] = disposable
                state.nextKey += 1
            }
        }
    }

    /// Whether the group was disposed.
    public var isDisposed: Bool { state.withLock { $0.disposables == nil } }

    /// The number of disposables in the group.
    public var count: Int { state.withLock { $0.disposables?.count ?? 0 } }

    /// Adds `disposable`; returns nil (and disposes it) if the group is already disposed.
    @discardableResult
    public func insert(_ disposable: Disposable) -> DisposeKey? {
        let key = state.withLock { state -> Int? in
            guard state.disposables != nil else { return nil }
            defer { state.nextKey += 1 }
            state.disposables?[state.nextKey] = disposable
            return state.nextKey
        }
        guard let key else {
            disposable.dispose()
            return nil
        }
        return DisposeKey(value: key)
    }

    /// Removes and disposes the disposable under `key`.
    public func remove(for key: DisposeKey) {
        let removed = state.withLock { $0.disposables?.removeValue(forKey: key.value) }
        removed?.dispose()
    }

    /// Disposes every disposable in the group.
    public func dispose() {
        let all = state.withLock { state -> [Int: Disposable]? in
            defer { state.disposables = nil }
            return state.disposables
        }
        all?.sorted { $0.key < $1.key }.forEach { $0.value.dispose() }
    }
}
