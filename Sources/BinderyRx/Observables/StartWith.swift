extension ObservableType {
    /// Emits `elements` first, then the source's events.
    public func startWith(_ elements: Element...) -> Observable<Element> {
        startWith(contentsOf: elements)
    }

    /// Emits `elements` first, then the source's events; the array form behind the variadic ones.
    func startWith(contentsOf elements: [Element]) -> Observable<Element> {
        Observable { observer in
            for element in elements { observer.on(.next(element)) }
            return self.subscribe(observer)
        }
    }
}
