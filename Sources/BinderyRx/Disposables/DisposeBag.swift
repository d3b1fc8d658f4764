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

    /// A bag holding `disposables`.
    public convenience init(disposing disposables: Disposable...) {
        self.init(disposing: disposables)
    }

    /// A bag holding `disposables`.
    public convenience init(disposing disposables: [Disposable]) {
        self.init()
        insert(disposables)
    }

    /// A bag holding what `builder` lists.
    public convenience init(@DisposableBuilder builder: () -> [Disposable]) {
        self.init(disposing: builder())
    }

    /// Adds each of `disposables`.
    public func insert(_ disposables: Disposable...) {
        insert(disposables)
    }

    /// Adds each of `disposables`; a bag that is already disposed disposes them at once.
    public func insert(_ disposables: [Disposable]) {
        let disposeNow = state.withLock { state -> Bool in
            if state.isDisposed { return true }
            state.disposables.append(contentsOf: disposables)
            return false
        }
        if disposeNow { disposables.forEach { $0.dispose() } }
    }

    /// Adds what `builder` lists.
    public func insert(@DisposableBuilder builder: () -> [Disposable]) {
        insert(builder())
    }

    /// Lists disposables one per line, for `DisposeBag { ... }` and `insert { ... }`.
    @resultBuilder
    public struct DisposableBuilder {
        /// The listed disposables.
        public static func buildBlock(_ disposables: Disposable...) -> [Disposable] { disposables }
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
