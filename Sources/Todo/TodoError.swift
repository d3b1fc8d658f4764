/// A change the store refused, for a person.
public struct TodoError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
