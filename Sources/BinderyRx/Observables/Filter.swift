extension ObservableType {
    /// Keeps the elements that satisfy `predicate`.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        Observable { observer in
            self.subscribe { event in
                guard case .next(let value) = event else { return observer.on(event) }
                do {
                    if try predicate(value) { observer.on(event) }
                } catch {
                    observer.on(.error(error))
                }
            }
        }
    }
}
