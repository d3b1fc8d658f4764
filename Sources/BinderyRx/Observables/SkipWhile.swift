extension ObservableType {
    /// Drops elements while they satisfy `predicate`, then emits everything from the first that does not.
    public func skip(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        Observable { observer in
            var skipping = true
            return self.subscribe { event in
                guard case .next(let element) = event, skipping else { return observer.on(event) }
                do {
                    skipping = try predicate(element)
                    if !skipping { observer.on(event) }
                } catch {
                    observer.on(.error(error))
                }
            }
        }
    }

    /// RxSwift 5's name of `skip(while:)`, which RxSwift 6 still ships deprecated.
    @available(*, deprecated, renamed: "skip(while:)")
    public func skipWhile(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> { skip(while: predicate) }
}
