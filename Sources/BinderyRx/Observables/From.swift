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
        // Immediate, as RxSwift's ObservableOptional: no scheduler is involved.
        Observable { observer in
            if let optional { observer.on(.next(optional)) }
            observer.on(.completed)
            return Disposables.create()
        }
    }

    /// A sequence of the optional's element if any, then completion, each delivered on `scheduler`.
    public static func from(optional: Element?, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        Observable { observer in
            // The completion is an action of its own, as in RxSwift's ObservableOptionalScheduled.
            scheduler.scheduleRecursive(optional) { element, recurse in
                if let element {
                    observer.on(.next(element))
                    recurse(nil)
                } else {
                    observer.on(.completed)
                }
            }
        }
    }

    private static func from<Sequence: Swift.Sequence>(sequence: Sequence, scheduler: ImmediateSchedulerType) -> Observable<Element> where Sequence.Element == Element {
        Observable { observer in
            // One scheduled action per event, as RxSwift's ObservableSequenceSink.
            scheduler.scheduleRecursive(sequence.makeIterator()) { iterator, recurse in
                var iterator = iterator
                if let element = iterator.next() {
                    observer.on(.next(element))
                    recurse(iterator)
                } else {
                    observer.on(.completed)
                }
            }
        }
    }
}
