extension ObservableType {
    /// A sequence of the given elements, then completion.
    public static func of(_ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        from(elements, scheduler: scheduler)
    }

    /// A sequence of the array's elements, then completion.
    public static func from(_ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> {
        from(sequence: array, scheduler: scheduler)
    }

    /// A sequence of a Swift sequence's elements, then completion.
    public static func from<Sequence: Swift.Sequence>(_ sequence: Sequence, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance) -> Observable<Element> where Sequence.Element == Element {
        from(sequence: sequence, scheduler: scheduler)
    }

    /// A sequence of the optional's element if any, then completion.
    public static func from(optional: Element?) -> Observable<Element> {
        from(sequence: optional.map { [$0] } ?? [], scheduler: CurrentThreadScheduler.instance)
    }

    private static func from<Sequence: Swift.Sequence>(sequence: Sequence, scheduler: ImmediateSchedulerType) -> Observable<Element> where Sequence.Element == Element {
        Observable { observer in
            let cancel = BooleanDisposable()
            let work = scheduler.schedule(()) { _ in
                for element in sequence {
                    if cancel.isDisposed { return Disposables.create() }
                    observer.on(.next(element))
                }
                if !cancel.isDisposed { observer.on(.completed) }
                return Disposables.create()
            }
            return Disposables.create(cancel, work)
        }
    }
}
