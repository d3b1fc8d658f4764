extension ObservableType {
    /// Sends the elements to each observer; an error here is a programmer error, as in RxCocoa.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element {
        subscribe { event in
            switch event {
            case .next: observers.forEach { $0.on(event) }
            case .error(let error): bindingError(error)
            case .completed: break
            }
        }
    }

    /// Sends the elements, as optionals, to each observer.
    public func bind<Observer: ObserverType>(to observers: Observer...) -> Disposable where Observer.Element == Element? {
        map { $0 as Element? }.subscribe { event in
            switch event {
            case .next: observers.forEach { $0.on(event) }
            case .error(let error): bindingError(error)
            case .completed: break
            }
        }
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
