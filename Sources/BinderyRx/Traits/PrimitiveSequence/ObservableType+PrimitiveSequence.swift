extension ObservableType {
    /// The sequence as a `Single`: fails with `RxError.noElements` if empty and `RxError.moreThanOneElement` on a second element.
    public func asSingle() -> Single<Element> {
        Single(raw: asSingleSource(ifEmpty: nil))
    }

    /// The sequence as a `Maybe`: fails with `RxError.moreThanOneElement` on a second element.
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: atMostOne { element, observer in
            if let element { observer.on(.next(element)) }
            observer.on(.completed)
        })
    }

    /// A single of the first element, or nil if the sequence completes empty.
    public func first() -> Single<Element?> {
        Single(raw: Observable { observer in
            self.subscribe { event in
                switch event {
                case .next(let element):
                    observer.on(.next(element))
                    observer.on(.completed)
                case .error(let error): observer.on(.error(error))
                case .completed:
                    observer.on(.next(nil))
                    observer.on(.completed)
                }
            }
        })
    }

    /// The one element on completion; `ifEmpty` (or `RxError.noElements`) when there was none.
    func asSingleSource(ifEmpty: Element?) -> Observable<Element> {
        atMostOne { element, observer in
            guard let result = element ?? ifEmpty else { return observer.on(.error(RxError.noElements)) }
            observer.on(.next(result))
            observer.on(.completed)
        }
    }

    /// Holds the one element until completion, then lets `finish` end the
    /// sequence; a second element is `RxError.moreThanOneElement`.
    private func atMostOne(_ finish: @escaping (Element?, AnyObserver<Element>) -> Void) -> Observable<Element> {
        Observable { observer in
            var element: Element?
            return self.subscribe { event in
                switch event {
                case .next(let next):
                    if element != nil { return observer.on(.error(RxError.moreThanOneElement)) }
                    element = next
                case .error: observer.on(event)
                case .completed: finish(element, observer)
                }
            }
        }
    }
}

extension ObservableType where Element == Never {
    /// The sequence as a `Completable`.
    public func asCompletable() -> Completable { Completable(raw: asObservable()) }
}
