/// A sequence event. Every sequence obeys the grammar `next* (error | completed)?`:
/// any number of elements, then at most one terminal event, after which nothing is delivered.
@frozen public enum Event<Element> {
    /// The next element of the sequence.
    case next(Element)
    /// The sequence failed; terminal.
    case error(Swift.Error)
    /// The sequence finished; terminal.
    case completed
}

extension Event {
    /// The element carried by a `.next` event.
    public var element: Element? {
        if case .next(let value) = self { return value }
        return nil
    }

    /// The error carried by an `.error` event.
    public var error: Swift.Error? {
        if case .error(let error) = self { return error }
        return nil
    }

    /// Whether this event is `.completed`.
    public var isCompleted: Bool {
        if case .completed = self { return true }
        return false
    }

    /// Whether this event ends the sequence.
    public var isStopEvent: Bool {
        switch self {
        case .next: return false
        case .error, .completed: return true
        }
    }

    /// Maps the element of a `.next` event, turning a thrown error into `.error`.
    public func map<Result>(_ transform: (Element) throws -> Result) -> Event<Result> {
        do {
            switch self {
            case .next(let element): return .next(try transform(element))
            case .error(let error): return .error(error)
            case .completed: return .completed
            }
        } catch {
            return .error(error)
        }
    }
}

extension Event: CustomDebugStringConvertible {
    /// A description like RxSwift's: `next(1)`, `error(e)`, `completed`.
    public var debugDescription: String {
        switch self {
        case .next(let value): return "next(\(value))"
        case .error(let error): return "error(\(error))"
        case .completed: return "completed"
        }
    }
}

extension Event: Equatable where Element: Equatable {
    /// Errors compare by type and description, as RxTest does on Linux.
    public static func == (lhs: Event<Element>, rhs: Event<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed): return true
        case let (.next(l), .next(r)): return l == r
        case let (.error(l), .error(r)): return sameError(l, r)
        default: return false
        }
    }
}

/// Whether two errors are the same as the events' `==` sees them: of one type, with one description.
func sameError(_ lhs: Swift.Error, _ rhs: Swift.Error) -> Bool {
    type(of: lhs) == type(of: rhs) && "\(lhs)" == "\(rhs)"
}
