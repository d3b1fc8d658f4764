extension ObservableType {
    /// A sequence of one element, then completion.
    public static func just(_ element: Element) -> Observable<Element> {
        Observable { observer in
            observer.on(.next(element))
            observer.on(.completed)
            return Disposables.create()
        }
    }

    /// A sequence of one element, then completion, delivered on `scheduler`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        Observable { observer in
            // The completion is an action of its own, as in RxSwift's JustScheduledSink.
            let completion = SingleAssignmentDisposable()
            let next = scheduler.schedule(()) { _ in
                observer.on(.next(element))
                completion.setDisposable(scheduler.schedule(()) { _ in
                    observer.on(.completed)
                    return Disposables.create()
                })
                return Disposables.create()
            }
            return Disposables.create(next, completion)
        }
    }
}
