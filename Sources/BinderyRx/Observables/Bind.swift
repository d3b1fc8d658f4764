extension ObservableType {
    /// Sends every event, completion and error included, to each observer, as RxCocoa's `bind(to:)` does.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        subscribe { event in observers.forEach { $0.on(event) } }
    }

    /// Sends every event, the elements as optionals, to each observer.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        map { $0 as Element? }.subscribe { event in observers.forEach { $0.on(event) } }
    }

    /// Accepts the elements into each relay.
    public func bind(to relays: PublishRelay<Element>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } }, onError: bindingError)
    }

    /// Accepts the elements into each relay.
    public func bind(to relays: BehaviorRelay<Element>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } }, onError: bindingError)
    }

    /// Accepts the elements into each relay.
    public func bind(to relays: ReplayRelay<Element>...) -> Disposable {
        subscribe(onNext: { element in relays.forEach { $0.accept(element) } }, onError: bindingError)
    }

    /// Accepts the elements, as optionals, into each relay.
    public func bind(to relays: PublishRelay<Element?>...) -> Disposable {
        map { $0 as Element? }.subscribe(onNext: { element in relays.forEach { $0.accept(element) } }, onError: bindingError)
    }

    /// Accepts the elements, as optionals, into each relay.
    public func bind(to relays: BehaviorRelay<Element?>...) -> Disposable {
        map { $0 as Element? }.subscribe(onNext: { element in relays.forEach { $0.accept(element) } }, onError: bindingError)
    }

    /// Accepts the elements, as optionals, into each relay.
    public func bind(to relays: ReplayRelay<Element?>...) -> Disposable {
        map { $0 as Element? }.subscribe(onNext: { element in relays.forEach { $0.accept(element) } }, onError: bindingError)
    }

    /// Subscribes `binder` to the sequence and returns what it returns.
    public func bind<Result>(to binder: (Self) -> Result) -> Result { binder(self) }

    /// Calls `onNext` for each element.
    public func bind(onNext: @escaping (Element) -> Void) -> Disposable {
        subscribe(onNext: onNext, onError: bindingError)
    }
}

/// Binding errors are programmer errors: bindings are meant for sequences that cannot fail.
func bindingError(_ error: Swift.Error) {
    assertionFailure("Binding error: \(error)")
}
