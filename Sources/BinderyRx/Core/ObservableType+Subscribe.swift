extension ObservableType {
    /// Subscribes a closure to every event.
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
        subscribe(AnyObserver(eventHandler: on))
    }

    /// Subscribes closures to elements, errors, completion and disposal; as in
    /// RxSwift, `onDisposed` also runs after a terminal event, and an error with no
    /// `onError` goes to `Hooks.defaultErrorHandler`.
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        let disposed: Disposable = onDisposed.map { Disposables.create(with: $0) } ?? Disposables.create()
        let callStack = onError == nil ? Hooks.subscriptionCallStack() : []
        let subscription = subscribe(AnyObserver<Element> { event in
            switch event {
            case .next(let value): onNext?(value)
            case .error(let error):
                if let onError { onError(error) } else { Hooks.defaultErrorHandler(callStack, error) }
                disposed.dispose()
            case .completed:
                onCompleted?()
                disposed.dispose()
            }
        })
        return Disposables.create(subscription, disposed)
    }

    /// Subscribes closures, passing `object` to each so the caller needs no capture list.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onNext: { [weak object] value in object.map { onNext?($0, value) } },
            onError: { [weak object] error in object.map { onError?($0, error) } },
            onCompleted: { [weak object] in object.map { onCompleted?($0) } },
            onDisposed: { [weak object] in object.map { onDisposed?($0) } }
        )
    }
}
