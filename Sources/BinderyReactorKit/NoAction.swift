/// ReactorKit 1's "no actions" type, which ReactorKit 2 replaced with `Never`; kept so
/// that reactors written for ReactorKit 1 (`typealias Action = NoAction`) compile as written.
@available(*, deprecated, renamed: "Never")
public typealias NoAction = Never

/// ReactorKit 1's "no mutations" type, which ReactorKit 2 replaced with `Never`.
@available(*, deprecated, renamed: "Never")
public typealias NoMutation = Never
