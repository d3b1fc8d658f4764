/// Something that carries an `Event`, so `dematerialize` can accept events of any element type.
public protocol EventConvertible {
    /// The element type of the event.
    associatedtype Element
    /// The event.
    var event: Event<Element> { get }
}

extension Event: EventConvertible {
    /// This event.
    public var event: Event<Element> { self }
}
