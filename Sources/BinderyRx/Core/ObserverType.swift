/// Something that receives sequence events.
public protocol ObserverType {
    /// The type of elements received.
    associatedtype Element
    /// Receives one event; callers deliver events serially and respect the grammar.
    func on(_ event: Event<Element>)
}

extension ObserverType {
    /// Delivers `.next(element)`.
    public func onNext(_ element: Element) { on(.next(element)) }
    /// Delivers `.completed`.
    public func onCompleted() { on(.completed) }
    /// Delivers `.error(error)`.
    public func onError(_ error: Swift.Error) { on(.error(error)) }
}

extension ObserverType where Element == Void {
    /// Delivers `.next(())`.
    public func onNext() { on(.next(())) }
}
