extension ObserverType {
    /// An observer that transforms each element with `transform` and sends it here; a
    /// transform that throws sends the error instead.
    public func mapObserver<Result>(_ transform: @escaping (Result) throws -> Element) -> AnyObserver<Result> {
        AnyObserver { event in self.on(event.map(transform)) }
    }
}
