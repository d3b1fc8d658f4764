/// Errors raised by the core itself, as in RxSwift.
public enum RxError: Swift.Error, CustomDebugStringConvertible {
    /// Unknown error.
    case unknown
    /// An operation was attempted on a disposed object.
    case disposed(object: AnyObject)
    /// An arithmetic overflow.
    case overflow
    /// An argument was out of range.
    case argumentOutOfRange
    /// A sequence had no elements where one was required.
    case noElements
    /// A sequence had more than one element where one was required.
    case moreThanOneElement
    /// A `timeout` elapsed.
    case timeout

    /// A readable description.
    public var debugDescription: String {
        switch self {
        case .unknown: return "Unknown error occurred."
        case .disposed(let object): return "Object `\(object)` was already disposed."
        case .overflow: return "Arithmetic overflow occurred."
        case .argumentOutOfRange: return "Argument out of range."
        case .noElements: return "Sequence doesn't contain any elements."
        case .moreThanOneElement: return "Sequence contains more than one element."
        case .timeout: return "Sequence timeout."
        }
    }
}
