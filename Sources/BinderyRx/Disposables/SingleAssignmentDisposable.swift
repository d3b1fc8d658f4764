import Synchronization

/// Holds one disposable, set once; if disposed first, the disposable is disposed when set.
public final class SingleAssignmentDisposable: Cancelable, @unchecked Sendable {
    private enum State { case empty, assigned(Disposable), disposed }
    private let state = Mutex(State.empty)

    /// An empty holder.
    public init() {}

    /// Whether the holder was disposed.
    public var isDisposed: Bool {
        state.withLock { if case .disposed = $0 { return true } else { return false } }
    }

    /// Sets the disposable; setting twice is a programmer error.
    public func setDisposable(_ disposable: Disposable) {
        let disposeNow = state.withLock { state -> Bool in
            switch state {
            case .empty:
                state = .assigned(disposable)
                return false
            case .assigned:
                fatalError("SingleAssignmentDisposable: disposable already set")
            case .disposed:
                return true
            }
        }
        if disposeNow { disposable.dispose() }
    }

    /// Disposes the held disposable, now or when it is set.
    public func dispose() {
        let previous = state.withLock { state -> Disposable? in
            defer { state = .disposed }
            if case .assigned(let disposable) = state { return disposable }
            return nil
        }
        previous?.dispose()
    }
}
