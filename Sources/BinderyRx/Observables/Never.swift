extension ObservableType {
    /// A sequence that never delivers anything.
    public static func never() -> Observable<Element> {
        Observable { _ in Disposables.create() }
    }
}
