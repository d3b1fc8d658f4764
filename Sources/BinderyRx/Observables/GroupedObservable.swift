/// The elements of one group of `groupBy`, with their key.
public struct GroupedObservable<Key, Element>: ObservableType {
    /// The key the group's elements share.
    public let key: Key
    private let source: Observable<Element>

    /// A group of `source`'s elements under `key`.
    public init(key: Key, source: Observable<Element>) {
        self.key = key
        self.source = source
    }

    /// Subscribes `observer` to the group's elements.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        source.subscribe(observer)
    }

    /// The group's elements.
    public func asObservable() -> Observable<Element> { source }
}
