extension ObservableType {
    /// An observable whose subscriptions run `subscribe`; the grammar is enforced for you.
    public static func create(_ subscribe: @escaping (AnyObserver<Element>) -> Disposable) -> Observable<Element> {
        Observable(subscribe)
    }
}
