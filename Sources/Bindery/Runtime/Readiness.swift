import Foundation

/// What keeps a process from serving as it should, for `/readyz`: each check
/// says why it is not ready (a cluster node's shared database away, say), or
/// nil. Checks are called on every `/readyz`: they read a flag, never wait.
///
/// Thread safety: any thread.
public final class Readiness: Sendable {
    private let checks = Locked<[@Sendable () -> String?]>([])

    package init() {}

    /// Adds `check`: a reason for not being ready, or nil while it is.
    public func add(_ check: @escaping @Sendable () -> String?) {
        checks.withLock { $0.append(check) }
    }

    /// Why the process is not ready now (the first check that says so), or nil.
    public var problem: String? {
        for check in checks.withLock({ $0 }) {
            if let problem = check() { return problem }
        }
        return nil
    }
}
