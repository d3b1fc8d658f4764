extension ObservableType where Element: ObservableConvertibleType {
    /// Mirrors the latest inner sequence, dropping the previous one when a new one arrives.
    public func switchLatest() -> Observable<Element.Element> {
        flatMapLatest { $0 }
    }
}
