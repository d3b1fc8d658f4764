extension ObservableType {
    /// Emits this sequence's elements, then, once it completes, those of `second`.
    public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Element> where Source.Element == Element {
        Observable.concat([asObservable(), second.asObservable()])
    }

    /// Emits the elements of each source in turn, subscribing to the next when one completes.
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        Observable { observer in
            // Sources are pulled lazily, so the sequence may be long or endless.
            var iterator = sequence.makeIterator()
            return concatEngine(observer) { iterator.next() }
        }
    }

    /// Emits the elements of each source in turn, subscribing to the next when one completes.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Observable<Element> where Collection.Element == Observable<Element> {
        Observable { observer in
            // Each source is let go of once it is subscribed, as RxSwift's: a completed one
            // (and what its closures hold) is not kept alive by the ones after it.
            var pending = Array(collection.reversed())
            return concatEngine(observer) { pending.popLast() }
        }
    }

    /// Emits the elements of each source in turn, subscribing to the next when one completes.
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        concat(sources)
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Emits the elements of each inner sequence in turn, each after the previous completes.
    public func concat() -> Observable<Element.Element> {
        merge(maxConcurrent: 1)
    }
}

/// Subscribes to the sources `next` hands out, one after the other, each once the one before completed.
private func concatEngine<Element>(_ observer: AnyObserver<Element>, next: @escaping () -> Observable<Element>?) -> Disposable {
    let current = SerialDisposable()
    func subscribeNext() {
        guard let source = next() else { return observer.on(.completed) }
        let subscription = SingleAssignmentDisposable()
        current.disposable = subscription
        subscription.setDisposable(source.subscribe { event in
            if case .completed = event { subscribeNext() } else { observer.on(event) }
        })
    }
    subscribeNext()
    return current
}
