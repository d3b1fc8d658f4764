import Foundation
import Synchronization

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
    // Subjects are observables and inherit this conformance: a publish subject is an event.
    var outputKind: OutputKind { self is PublishSubject<Element> ? .signal : .driver }
}

extension BehaviorRelay: OutputPort {
    var outputKind: OutputKind { .driver }
}

extension SessionRelay: OutputPort {
    var outputKind: OutputKind { .driver }
}

extension PublishRelay: OutputPort {
    var outputKind: OutputKind { .signal }
}

/// How an output's elements go on the wire.
enum OutputEncoding {
    /// `Void` as `null`, `Encodable` values as compact JSON on one line.
    case json((Any) throws -> Data)
    /// A ViewModel: it becomes a new session and the event carries its address.
    case viewModel
    /// A value sent as its changes where it can be (a `KeyedList`).
    case changing

    /// The encoding of `type`, or nil if it has none.
    init?(_ type: Any.Type) {
        if type is ChangingValue.Type {
            self = .changing
        } else if type == Void.self {
            self = .json { _ in Data("null".utf8) }
        } else if let primitive = JSONText.primitiveEncoding(for: type) {
            self = .json(primitive)
        } else if let type = type as? any Encodable.Type {
            self = .json(Self.encoding(of: type))
        } else if type is AnyObject.Type {
            self = .viewModel
        } else {
            return nil
        }
    }
}

extension OutputEncoding {
    /// Values of `type` as JSON: the type is opened here, once, so that each value
    /// is cast to `T` rather than looked up as `any Encodable`. An enum with a raw
    /// value is written directly; once a value of the type turns out not to be
    /// one primitive, its values all go to JSONEncoder.
    private static func encoding<T: Encodable>(of type: T.Type) -> (Any) throws -> Data {
        let encoder = JSONEncoder.bindery
        let mayBeSingle = SingleValueHint()
        return { element in
            let value = element as! T
            if mayBeSingle.value.load(ordering: .relaxed) {
                if let json = SingleValueJSON.encode(value) { return json }
                mayBeSingle.value.store(false, ordering: .relaxed)
            }
            return try encoder.encode(value)
        }
    }
}

/// Whether an output type's values may still be single primitives (see `SingleValueJSON`).
private final class SingleValueHint: Sendable {
    let value = Atomic<Bool>(true)
}
