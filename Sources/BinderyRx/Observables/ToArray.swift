extension ObservableType {
    /// Collects every element and, on completion, succeeds with the array.
    public func toArray() -> Single<[Element]> {
        Single(raw: reduce([Element]()) { $0 + [$1] })
    }
}
