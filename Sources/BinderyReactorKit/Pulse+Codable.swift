/// A pulse in a `Codable` state (one a served reactor keeps): its value and how many
/// times it was assigned, so that a state made again does not count as an assignment.
/// ReactorKit's `Pulse` is not `Codable`; this conformance is Bindery's.
extension Pulse: Codable where Value: Codable {
    private enum CodingKeys: String, CodingKey { case value, valueUpdatedCount }

    /// The pulse as it was saved.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(wrappedValue: try container.decode(Value.self, forKey: .value))
        valueUpdatedCount = try container.decode(UInt.self, forKey: .valueUpdatedCount)
    }

    /// Saves the value and its count.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
        try container.encode(valueUpdatedCount, forKey: .valueUpdatedCount)
    }
}
