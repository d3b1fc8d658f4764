/// When a test observable was subscribed and unsubscribed, in virtual time.
public struct Subscription: Equatable, Hashable, CustomDebugStringConvertible {
    /// The time of subscription.
    public let subscribe: TestTime
    /// The time of disposal, `Int.max` while still subscribed.
    public let unsubscribe: TestTime

    /// A subscription that is still active.
    public init(_ subscribe: TestTime) {
        self.subscribe = subscribe
        self.unsubscribe = Int.max
    }

    /// A subscription from `subscribe` to `unsubscribe`.
    public init(_ subscribe: TestTime, _ unsubscribe: TestTime) {
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
    }

    /// `(subscribe : unsubscribe)`.
    public var debugDescription: String {
        let end = unsubscribe == Int.max ? "Infinity" : String(unsubscribe)
        return "(\(subscribe) : \(end))"
    }
}
