extension ObservableType {
    /// Folds the elements into `seed` and, on completion, emits `mapResult` of the result.
    public func reduce<A, Result>(_ seed: A, accumulator: @escaping (A, Element) throws -> A, mapResult: @escaping (A) throws -> Result) -> Observable<Result> {
        Observable { observer in
            var state = seed
            return self.subscribe { event in
                do {
                    switch event {
                    case .next(let element): state = try accumulator(state, element)
                    case .error(let error): observer.on(.error(error))
                    case .completed:
                        observer.on(.next(try mapResult(state)))
                        observer.on(.completed)
                    }
                } catch {
                    observer.on(.error(error))
                }
            }
        }
    }

    /// Folds the elements into `seed` and, on completion, emits the result.
    public func reduce<A>(_ seed: A, accumulator: @escaping (A, Element) throws -> A) -> Observable<A> {
        reduce(seed, accumulator: accumulator) { $0 }
    }
}
