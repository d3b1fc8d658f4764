/// Equality by identity, for a reactor held in an equatable state (a list of cell reactors).
public protocol IdentityEquatable: AnyObject, Equatable {}

extension IdentityEquatable {
    /// Whether `lhs` and `rhs` are the same object.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs === rhs }
}
