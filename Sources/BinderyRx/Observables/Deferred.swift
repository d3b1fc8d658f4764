extension ObservableType {
    /// A sequence made anew by `factory` for each subscription; a thrown error becomes `.error`.
    public static func deferred(_ factory: @escaping () throws -> Observable<Element>) -> Observable<Element> {
        Observable { observer in
            do {
                return try factory().subscribe(observer)
            } catch {
                observer.on(.error(error))
                return Disposables.create()
            }
        }
    }
}
