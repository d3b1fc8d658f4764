/// Why an `Action` execution failed, as in the RxSwift community Action module.
public enum ActionError: Swift.Error {
    /// The action was executed while disabled (`enabledIf` was false or it was executing).
    case notEnabled
    /// The work failed with this error.
    case underlyingError(Swift.Error)
}
