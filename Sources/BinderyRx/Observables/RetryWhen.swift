import Foundation

extension ObservableType {
    /// After an error of type `Error`, resubscribes each time the sequence `notificationHandler`
    /// makes from the errors emits; it ends as that sequence ends. Other errors end it at once.
    public func retry<TriggerObservable: ObservableType, Error: Swift.Error>(when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable) -> Observable<Element> {
        retryEngine(notificationHandler) { $0 as? Error }
    }

    /// After an error, resubscribes each time the sequence `notificationHandler` makes from the errors emits; it ends as that sequence ends.
    public func retry<TriggerObservable: ObservableType>(when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable) -> Observable<Element> {
        retryEngine(notificationHandler) { $0 }
    }

    /// RxSwift 5's name of `retry(when:)` for errors of type `Error`, which RxSwift 6 still ships deprecated.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType, Error: Swift.Error>(_ notificationHandler: @escaping (Observable<Error>) -> TriggerObservable) -> Observable<Element> {
        retry(when: notificationHandler)
    }

    /// RxSwift 5's name of `retry(when:)`, which RxSwift 6 still ships deprecated.
    @available(*, deprecated, renamed: "retry(when:)")
    public func retryWhen<TriggerObservable: ObservableType>(_ notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable) -> Observable<Element> {
        retry(when: notificationHandler)
    }

    /// The engine of both `retry(when:)`: `accept` picks the errors that go to the handler.
    private func retryEngine<TriggerObservable: ObservableType, Failure>(_ notificationHandler: @escaping (Observable<Failure>) -> TriggerObservable, accept: @escaping (Swift.Error) -> Failure?) -> Observable<Element> {
        Observable { observer in
            let lock = NSRecursiveLock()
            let errors = PublishSubject<Failure>()
            // What the handler emits goes here, and is listened to only after an error, as in
            // RxSwift: a handler that ends before any error ends the sequence at the next error.
            let notifier = PublishSubject<TriggerObservable.Element>()
            let trigger = SerialDisposable()
            let source = SerialDisposable()
            var subscribing = false
            var again = false

            func subscribeSource() {
                // A retry asked for while the source is being subscribed to (one that fails at
                // once) is run by this loop rather than by recursion, which could exhaust the stack.
                let start = lock.withLock { () -> Bool in
                    if subscribing {
                        again = true
                        return false
                    }
                    subscribing = true
                    return true
                }
                guard start else { return }
                repeat {
                    let subscription = SingleAssignmentDisposable()
                    source.disposable = subscription
                    subscription.setDisposable(self.subscribe { event in
                        switch event {
                        case .next, .completed: observer.on(event)
                        case .error(let error):
                            guard let failure = accept(error) else { return observer.on(event) }
                            // The failed subscription goes before the trigger is asked, as in RxSwift's RetryWhen.
                            subscription.dispose()
                            trigger.disposable = notifier.subscribe { event in
                                switch event {
                                case .next:
                                    trigger.disposable = Disposables.create()
                                    subscribeSource()
                                case .error(let error): observer.on(.error(error))
                                case .completed: observer.on(.completed)
                                }
                            }
                            errors.on(.next(failure))
                        }
                    })
                } while lock.withLock { () -> Bool in
                    defer { again = false }
                    if !again { subscribing = false }
                    return again
                }
            }

            let handler = notificationHandler(errors.asObservable()).subscribe(notifier)
            subscribeSource()
            return Disposables.create(source, trigger, handler)
        }
    }
}
