extension ObservableType {
    /// Creates a resource for each subscription and a sequence that depends on it; the resource is disposed with the subscription.
    public static func using<Resource: Disposable>(_ resourceFactory: @escaping () throws -> Resource, observableFactory: @escaping (Resource) throws -> Observable<Element>) -> Observable<Element> {
        Observable { observer in
            var resource: Resource?
            do {
                let created = try resourceFactory()
                resource = created
                let subscription = try observableFactory(created).subscribe(observer)
                return Disposables.create(subscription, created)
            } catch {
                resource?.dispose()
                observer.on(.error(error))
                return Disposables.create()
            }
        }
    }
}
