import Synchronization

/// A disposable that only records that it was disposed.
public final class BooleanDisposable: Cancelable, @unchecked Sendable {
    private let disposed: Atomic<Bool>

    /// A holder, disposed already if `isDisposed`.
    public init(isDisposed: Bool = false) { disposed = Atomic(isDisposed) }

    /// Whether it was disposed.
    public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// Marks it disposed.
    public func dispose() { disposed.store(true, ordering: .releasing) }
}
