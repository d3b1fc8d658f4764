import Foundation

/// One named input of a session's ViewModel: it decodes a JSON payload and sends
/// the value into the ViewModel. Call `send` on the session's scheduler.
package struct InputPort {
    /// The input's name: the Swift property name.
    let name: String
    /// The Swift type of the payload.
    let elementType: Any.Type
    /// Decodes `data` and delivers it; throws `BinderyError` for bad payloads.
    let send: (Data) throws -> Void

    /// A port named `name` that sends decoded values to `deliver`.
    package init<Element>(name: String, _ type: Element.Type, deliver: @escaping (Element) -> Void) throws {
        guard let decode = Payload.decoder(for: Element.self) else {
            throw BinderyError(.viewModelFailed, "input '\(name)' has element type \(Element.self), which is neither Void nor Decodable")
        }
        self.name = name
        elementType = Element.self
        send = { data in deliver(try decode(data)) }
    }
}

/// A property type that can stand for an input: the runtime makes a subject for it.
protocol InputPortConvertible {
    /// A fresh value of this type fed by a new input port named `name`.
    static func makeInputPort(named name: String) throws -> (value: Any, port: InputPort)
}

extension InputPortConvertible {
    /// The bytes a value of this type takes.
    static var size: Int { MemoryLayout<Self>.size }

    /// Moves `value`, made by `makeInputPort`, into uninitialized memory at `pointer`.
    static func initialize(_ pointer: UnsafeMutableRawPointer, with value: Any) {
        pointer.initializeMemory(as: Self.self, repeating: value as! Self, count: 1)
    }
}

extension Observable: InputPortConvertible {
    static func makeInputPort(named name: String) throws -> (value: Any, port: InputPort) {
        // Subjects inherit this conformance; an `Input` is made of sequences only.
        guard Self.self == Observable<Element>.self else {
            throw BinderyError(.viewModelFailed, "input property '\(name)' is a \(Self.self); inputs must be Observable, Signal or Driver")
        }
        let subject = PublishSubject<Element>()
        return (subject.asObservable(), try InputPort(name: name, Element.self, deliver: subject.onNext))
    }
}

extension SharedSequence: InputPortConvertible {
    static func makeInputPort(named name: String) throws -> (value: Any, port: InputPort) {
        let subject = PublishSubject<Element>()
        let port = try InputPort(name: name, Element.self, deliver: subject.onNext)
        if SharingStrategy.self == DriverSharingStrategy.self {
            return (subject.asDriver(onErrorDriveWith: .empty()), port)
        }
        return (subject.asSignal(onErrorSignalWith: .empty()), port)
    }
}

extension ControlEvent: InputPortConvertible {
    static func makeInputPort(named name: String) throws -> (value: Any, port: InputPort) {
        let subject = PublishSubject<Element>()
        return (ControlEvent(events: subject), try InputPort(name: name, Element.self, deliver: subject.onNext))
    }
}

extension ControlProperty: InputPortConvertible {
    // What the page sends is the property's values; what the ViewModel binds to it goes nowhere.
    static func makeInputPort(named name: String) throws -> (value: Any, port: InputPort) {
        let subject = PublishSubject<Element>()
        let values = ControlProperty(values: subject, valueSink: AnyObserver<Element> { _ in })
        return (values, try InputPort(name: name, Element.self, deliver: subject.onNext))
    }
}

// `Decodable` only so that a ViewModel's `Input` struct synthesizes `init(from:)`;
// `InputPortDecoder` never calls these, and any other decoder is refused.
// (The initializer is BinderyRx's: a class's required initializer lives in its definition.)
extension Observable: Decodable {}

extension SharedSequence: Decodable {
    /// Not for use: Bindery builds inputs through its own decoder.
    public init(from decoder: Decoder) throws {
        throw DecodingError.typeMismatch(
            SharedSequence.self, .init(codingPath: decoder.codingPath, debugDescription: "A Driver or Signal input is built by Bindery, not decoded from data"))
    }
}
