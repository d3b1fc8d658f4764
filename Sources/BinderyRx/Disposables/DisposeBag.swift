import Synchronization

/// Disposes everything added to it when it is deinitialized, as in RxSwift.
public final class DisposeBag: @unchecked Sendable {
    private struct State { var disposables: [Disposable] = []; var isDisposed = false }
    private let state = Mutex(State())

    /// An empty bag.
    public init() {}

    /// Adds `disposable`; a bag that is already disposed disposes it at once.
    public func insert(_ disposable: Disposable) {
        let disposeNow = state.withLock { state -> Bool in
            if state.isDisposed { return true }
            state.disposables.append(disposable)
            return false
        }
        if disposeNow { disposable.dispose() }
    }

    deinit {
        let all = state.withLock { state -> [Disposable] in
            defer { state.disposables = []; state.isDisposed = true }
            return state.disposables
        }
        all.forEach { $0.dispose() }
    }
}

extension Disposable {
    /// Adds this disposable to `bag`.
    public func disposed(by bag: DisposeBag) { bag.insert(self) }
}
