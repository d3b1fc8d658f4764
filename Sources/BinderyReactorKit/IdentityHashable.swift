/// Hashing by identity, for a reactor used as a key or in a set.
public protocol IdentityHashable: Hashable, IdentityEquatable {}

extension IdentityHashable {
    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
