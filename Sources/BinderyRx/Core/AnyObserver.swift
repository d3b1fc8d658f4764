/// A type-erased observer.
public struct AnyObserver<Element>: ObserverType {
    /// The closure that receives events.
    public typealias EventHandler = (Event<Element>) -> Void

    private let observer: EventHandler

    /// An observer that calls `eventHandler` for each event.
    public init(eventHandler: @escaping EventHandler) { observer = eventHandler }

    /// Erases `observer`.
    public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        // An observer erased already is not wrapped again: each event would take one more call.
        if let erased = observer as? AnyObserver<Element> {
            self = erased
        } else {
            self.observer = observer.on
        }
    }

    /// Receives one event.
    public func on(_ event: Event<Element>) { observer(event) }

    /// This observer.
    public func asObserver() -> AnyObserver<Element> { self }

    /// An observer that maps elements with `transform` before passing them here.
    public func mapObserver<Result>(_ transform: @escaping (Result) throws -> Element) -> AnyObserver<Result> {
        AnyObserver<Result> { event in self.on(event.map(transform)) }
    }
}

extension ObserverType {
    /// This observer, type-erased.
    public func asObserver() -> AnyObserver<Element> { AnyObserver(self) }
}
