extension ObservableType {
    /// Maps an element to an inner sequence and mirrors it, ignoring source elements until it completes.
    public func flatMapFirst<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        mergeEngine(asObservable(), mode: .dropWhileBusy) { try selector($0).asObservable() }
    }
}
