import Foundation

/// Whether an output is state or an event.
public enum OutputKind: String, Codable, Sendable {
    /// State: the latest value is kept, sent first on connect and in snapshots.
    case driver
    /// An event: delivered once, in order, never part of a snapshot.
    case signal
}

/// A property type that can stand for an output.
protocol OutputPort {
    /// Driver-like state or signal-like events.
    var outputKind: OutputKind { get }
    /// The Swift type of the elements.
    var elementType: Any.Type { get }
    /// Subscribes to the raw elements.
    func subscribeValues(onNext: @escaping (Any) -> Void, onError: @escaping (Error) -> Void) -> Disposable
}

extension ObservableConvertibleType {
    var elementType: Any.Type { Element.self }

    func subscribeValues(onNext: @escaping (Any) -> Void, onError: @escaping (Error) -> Void) -> Disposable {
        asObservable().subscribe(onNext: { onNext($0) }, onError: onError)
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

/// How an output's elements go on the wire.
enum OutputEncoding {
    /// `Void` as `null`, `Encodable` values as compact JSON on one line.
    case json((Any) throws -> Data)
    /// A ViewModel: it becomes a new session and the event carries its address.
    case viewModel

    /// The encoding of `type`, or nil if it has none.
    init?(_ type: Any.Type) {
        if type == Void.self {
            self = .json { _ in Data("null".utf8) }
        } else if let primitive = JSONText.primitiveEncoding(for: type) {
            self = .json(primitive)
        } else if type is any Encodable.Type {
            let encoder = JSONEncoder.bindery
            self = .json { element in try encoder.encodeOpened(element as! any Encodable) }
        } else if type is AnyObject.Type {
            self = .viewModel
        } else {
            return nil
        }
    }
}
