import Foundation

/// Whether an output is state or an event.
public enum OutputKind: String, Codable, Sendable {
    /// State: the latest value is kept, sent first on connect and in snapshots.
    case driver
    /// An event: delivered once, in order, never part of a snapshot.
    case signal
}

/// A property type that can stand for an output: its elements are encoded to JSON.
protocol OutputPort {
    /// Driver-like state or signal-like events.
    var outputKind: OutputKind { get }
    /// The Swift type of the elements.
    var elementType: Any.Type { get }
    /// Subscribes and passes each element as JSON; nil if the elements cannot be encoded.
    func subscribeJSON(_ onJSON: @escaping (Result<Data, Error>) -> Void) -> Disposable?
}

extension ObservableConvertibleType {
    var elementType: Any.Type { Element.self }

    func subscribeJSON(_ onJSON: @escaping (Result<Data, Error>) -> Void) -> Disposable? {
        guard let encode = OutputEncoding.encoder(for: Element.self) else { return nil }
        return asObservable().subscribe(onNext: { element in
            onJSON(Result { try encode(element) })
        }, onError: { error in
            onJSON(.failure(error))
        })
    }
}

extension SharedSequence: OutputPort {
    var outputKind: OutputKind { SharingStrategy.self == SignalSharingStrategy.self ? .signal : .driver }
}

extension Observable: OutputPort {
    var outputKind: OutputKind { .driver }
}

extension BehaviorRelay: OutputPort {
    var outputKind: OutputKind { .driver }
}

extension PublishRelay: OutputPort {
    var outputKind: OutputKind { .signal }
}

extension BehaviorSubject: OutputPort {
    var outputKind: OutputKind { .driver }
}

extension PublishSubject: OutputPort {
    var outputKind: OutputKind { .signal }
}

/// Encodes output elements: `Void` as `null`, `Encodable` values as compact JSON on one line.
enum OutputEncoding {
    static func encoder<Element>(for type: Element.Type) -> ((Element) throws -> Data)? {
        if Element.self == Void.self { return { _ in Data("null".utf8) } }
        guard Element.self is any Encodable.Type else { return nil }
        let encoder = JSONEncoder.bindery
        return { element in try encoder.encodeOpened(element as! any Encodable) }
    }
}
