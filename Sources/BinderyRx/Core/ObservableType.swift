/// Something that can be turned into an `Observable`.
public protocol ObservableConvertibleType {
    /// The type of elements in the sequence.
    associatedtype Element
    /// The sequence as an `Observable`.
    func asObservable() -> Observable<Element>
}

/// A push-based sequence: `subscribe` starts delivery of `next* (error | completed)?`
/// to the observer, and disposing the returned `Disposable` stops it and frees upstream.
public protocol ObservableType: ObservableConvertibleType {
    /// Subscribes `observer` to the sequence's events.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element
}

extension ObservableType {
    /// The sequence as an `Observable`.
    public func asObservable() -> Observable<Element> {
        Observable { observer in self.subscribe(observer) }
    }
}
