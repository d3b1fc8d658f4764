extension ObservableType {
    /// Maps each element to an inner sequence and emits the elements of all of them as they come.
    public func flatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        mergeEngine(asObservable(), mode: .all) { try selector($0).asObservable() }
    }
}
