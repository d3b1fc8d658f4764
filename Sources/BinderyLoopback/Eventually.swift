import Foundation

/// Polls `condition` every `interval` until it holds or `timeout` has passed, and
/// says whether it held: the one wait of the server and runtime tests, for what a
/// server, a session or a database does a moment after the cause a test saw.
public func eventually(
    within timeout: Duration = .seconds(10), every interval: Duration = .milliseconds(5), _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        guard ContinuousClock.now < deadline else { return false }
        Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
    }
    return true
}

/// `eventually` for a test that must not block its thread (an async test on the cooperative pool).
public func eventually(
    within timeout: Duration = .seconds(10), every interval: Duration = .milliseconds(5), _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: interval)
    }
    return true
}
