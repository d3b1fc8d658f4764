extension ObservableType {
    /// Transforms each element; a thrown error ends the sequence with `.error`.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Observable<Result> {
        Observable { observer in
            self.subscribe { event in observer.on(event.map(transform)) }
        }
    }
}
