import Synchronization

/// Factory of common disposables, as in RxSwift.
public enum Disposables {
    /// A disposable that does nothing.
    public static func create() -> Disposable { NopDisposable.shared }

    /// A disposable that runs `dispose` once, on first disposal.
    public static func create(with dispose: @escaping () -> Void) -> Cancelable {
        AnonymousDisposable(dispose)
    }

    /// A disposable that disposes both.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable) -> Cancelable {
        CompositeDisposable(disposables: [disposable1, disposable2])
    }

    /// A disposable that disposes all three.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) -> Cancelable {
        CompositeDisposable(disposables: [disposable1, disposable2, disposable3])
    }

    /// A disposable that disposes all of them.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable, _ disposables: Disposable...) -> Cancelable {
        CompositeDisposable(disposables: [disposable1, disposable2, disposable3] + disposables)
    }

    /// A disposable that disposes every one of `disposables`.
    public static func create(_ disposables: [Disposable]) -> Cancelable {
        CompositeDisposable(disposables: disposables)
    }
}

struct NopDisposable: Disposable {
    static let shared = NopDisposable()
    func dispose() {}
}

final class AnonymousDisposable: Cancelable, @unchecked Sendable {
    private let action: Mutex<(() -> Void)?>

    init(_ action: @escaping () -> Void) { self.action = Mutex(action) }

    var isDisposed: Bool { action.withLock { $0 == nil } }

    func dispose() {
        let taken = action.withLock { action -> (() -> Void)? in
            defer { action = nil }
            return action
        }
        taken?()
    }
}
