extension ObservableType {
    /// Emits elements while they satisfy `predicate`, completing at the first that does not.
    public func take(while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Observable<Element> {
        Observable { observer in
            self.subscribe { event in
                guard case .next(let element) = event else { return observer.on(event) }
                do {
                    if try predicate(element) { return observer.on(event) }
                    if behavior == .inclusive { observer.on(event) }
                    observer.on(.completed)
                } catch {
                    observer.on(.error(error))
                }
            }
        }
    }

    /// Old name of `take(while:)`.
    @available(*, deprecated, renamed: "take(while:)")
    public func takeWhile(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        take(while: predicate)
    }
}
