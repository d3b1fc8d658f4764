import Foundation

/// The time converter of `HistoricalScheduler`: virtual time is a date, intervals are seconds.
public struct HistoricalSchedulerTimeConverter: VirtualTimeConverterType {
    /// A date.
    public typealias VirtualTimeUnit = RxTime
    /// Seconds.
    public typealias VirtualTimeIntervalUnit = TimeInterval

    /// The date itself.
    public func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime { virtualTime }
    /// The date itself.
    public func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit { time }
    /// The seconds themselves.
    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> TimeInterval { virtualTimeInterval }
    /// The seconds themselves.
    public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit { timeInterval }
    /// The date `offset` seconds later.
    public func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit { time.addingTimeInterval(offset) }

    /// How the dates compare.
    public func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison {
        switch lhs.compare(rhs) {
        case .orderedAscending: return .lessThan
        case .orderedSame: return .equal
        case .orderedDescending: return .greaterThan
        }
    }
}
