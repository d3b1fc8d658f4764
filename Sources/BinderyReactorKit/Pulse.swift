/// A state property that counts its assignments, so that `Reactor.pulse(_:)` emits each
/// assignment, even of an equal value (an alert message shown twice), and nothing when
/// other properties of the state change.
@propertyWrapper
public struct Pulse<Value> {
    /// The value last assigned.
    public var value: Value {
        didSet { valueUpdatedCount &+= 1 }
    }

    /// How many times a value was assigned, wrapping to 0 after `UInt.max`.
    public internal(set) var valueUpdatedCount: UInt = 0

    /// A pulse holding `wrappedValue`, assigned no times yet.
    public init(wrappedValue: Value) {
        value = wrappedValue
    }

    /// The value; assigning it counts as an update.
    public var wrappedValue: Value {
        get { value }
        set { value = newValue }
    }

    /// The pulse itself (`state.$alert`), for `Reactor.pulse(_:)`.
    public var projectedValue: Pulse<Value> { self }
}
