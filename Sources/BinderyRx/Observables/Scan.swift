extension ObservableType {
    /// Emits each intermediate result of folding the elements into `seed`.
    public func scan<A>(_ seed: A, accumulator: @escaping (A, Element) throws -> A) -> Observable<A> {
        Observable { observer in
            var state = seed
            return self.subscribe { event in
                switch event {
                case .next(let value):
                    do {
                        state = try accumulator(state, value)
                        observer.on(.next(state))
                    } catch {
                        observer.on(.error(error))
                    }
                case .error(let error): observer.on(.error(error))
                case .completed: observer.on(.completed)
                }
            }
        }
    }

    /// Emits each intermediate result of folding the elements into `seed` in place.
    public func scan<A>(into seed: A, accumulator: @escaping (inout A, Element) throws -> Void) -> Observable<A> {
        scan(seed) { state, element in
            var next = state
            try accumulator(&next, element)
            return next
        }
    }
}
