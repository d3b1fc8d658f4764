extension ObservableType {
    /// Passes the only element on as it comes, then completes with the source; fails with
    /// `RxError.moreThanOneElement` at a second element, `RxError.noElements` if there is none.
    public func single() -> Observable<Element> {
        single { _ in true }
    }

    /// As `single()`, counting only the elements that satisfy `predicate`.
    public func single(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        Observable { observer in
            var seen = false
            return self.subscribe { event in
                switch event {
                case .next(let element):
                    do {
                        guard try predicate(element) else { return }
                    } catch {
                        return observer.on(.error(error))
                    }
                    if seen { return observer.on(.error(RxError.moreThanOneElement)) }
                    seen = true
                    observer.on(event)
                case .error:
                    observer.on(event)
                case .completed:
                    observer.on(seen ? .completed : .error(RxError.noElements))
                }
            }
        }
    }
}
