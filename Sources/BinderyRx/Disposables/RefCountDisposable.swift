import Foundation

/// Disposes its underlying disposable once it was disposed itself and every disposable
/// `retain()` handed out was disposed too, as RxSwift's.
///
/// Thread safety: one lock guards the count; the underlying disposable is disposed outside it.
public final class RefCountDisposable: Cancelable, @unchecked Sendable {
    private let lock = NSLock()
    private var disposable: Disposable?
    private var primaryDisposed = false
    private var count = 0

    /// Guards `disposable`.
    public init(disposable: Disposable) { self.disposable = disposable }

    /// Whether the underlying disposable was disposed.
    public var isDisposed: Bool { lock.withLock { disposable == nil } }

    /// A disposable that keeps the underlying one alive until it is disposed; a no-op once that is gone.
    public func retain() -> Disposable {
        lock.withLock { () -> Disposable in
            guard disposable != nil else { return Disposables.create() }
            count += 1
            return Disposables.create { self.release() }
        }
    }

    /// Disposes the underlying disposable, now if nothing is retained, else when the last retain goes.
    public func dispose() {
        let underlying = lock.withLock { () -> Disposable? in
            guard let disposable, !primaryDisposed else { return nil }
            primaryDisposed = true
            guard count == 0 else { return nil }
            self.disposable = nil
            return disposable
        }
        underlying?.dispose()
    }

    private func release() {
        let underlying = lock.withLock { () -> Disposable? in
            guard let disposable else { return nil }
            count -= 1
            guard count == 0, primaryDisposed else { return nil }
            self.disposable = nil
            return disposable
        }
        underlying?.dispose()
    }
}
