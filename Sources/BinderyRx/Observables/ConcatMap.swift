extension ObservableType {
    /// Maps each element to an inner sequence and emits them one after another, each after the previous completes.
    public func concatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        mergeEngine(asObservable(), mode: .limited(1)) { try selector($0).asObservable() }
    }
}
