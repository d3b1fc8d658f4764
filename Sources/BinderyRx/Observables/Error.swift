extension ObservableType {
    /// A sequence that fails at once with `error`.
    public static func error(_ error: Swift.Error) -> Observable<Element> {
        Observable { observer in
            observer.on(.error(error))
            return Disposables.create()
        }
    }
}
