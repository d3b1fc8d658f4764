extension ObservableType {
    /// Transforms each element and drops the nils.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Observable<Result> {
        Observable { observer in
            self.subscribe { event in
                switch event {
                case .next(let value):
                    do {
                        if let mapped = try transform(value) { observer.on(.next(mapped)) }
                    } catch {
                        observer.on(.error(error))
                    }
                case .error(let error): observer.on(.error(error))
                case .completed: observer.on(.completed)
                }
            }
        }
    }
}
