import Synchronization

/// Holds a replaceable disposable: setting a new one disposes the previous.
public final class SerialDisposable: Cancelable, @unchecked Sendable {
    private struct State { var current: Disposable?; var isDisposed = false }
    private let state = Mutex(State())

    /// An empty holder.
    public init() {}

    /// Whether the holder was disposed.
    public var isDisposed: Bool { state.withLock { $0.isDisposed } }

    /// The current disposable; setting disposes the previous one (or the new one, once disposed).
    public var disposable: Disposable {
        get { state.withLock { $0.current } ?? Disposables.create() }
        set {
            let (previous, disposeNew) = state.withLock { state -> (Disposable?, Bool) in
                if state.isDisposed { return (nil, true) }
                defer { state.current = newValue }
                return (state.current, false)
            }
            previous?.dispose()
            if disposeNew { newValue.dispose() }
        }
    }

    /// Disposes the current disposable and every later one.
    public func dispose() {
        let current = state.withLock { state -> Disposable? in
            defer { state.isDisposed = true; state.current = nil }
            return state.isDisposed ? nil : state.current
        }
        current?.dispose()
    }
}
