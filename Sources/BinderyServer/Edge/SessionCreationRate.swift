import Bindery
import Foundation

/// How fast each client may create sessions: a bucket per client address
/// holding up to `burst` creations, refilled at `perSecond`. A page creates
/// one or two; a loop creating thousands is told to slow down (429).
///
/// The table forgets full buckets once it tracks many clients, so a flood of
/// addresses cannot grow it without bound.
///
/// Thread safety: `take` may be called from any thread.
final class SessionCreationRate: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    let perSecond: Double
    let burst: Int
    private let buckets = Locked<[String: Bucket]>([:])
    /// Clients tracked before full buckets are forgotten.
    private static let forgetBeyond = 10_000

    init(perSecond: Double, burst: Int) {
        self.perSecond = perSecond
        self.burst = burst
    }

    /// Takes one creation from `client`'s bucket; nil if there was one, else
    /// how long until there is.
    func take(for client: String, now: ContinuousClock.Instant = .now) -> Duration? {
        buckets.withLock { buckets in
            var bucket = buckets[client].map { refilled($0, now) } ?? Bucket(tokens: Double(burst), updated: now)
            guard bucket.tokens >= 1 else {
                buckets[client] = bucket
                return .seconds((1 - bucket.tokens) / perSecond)
            }
            bucket.tokens -= 1
            buckets[client] = bucket
            if buckets.count > Self.forgetBeyond {
                buckets = buckets.filter { refilled($0.value, now).tokens < Double(burst) }
            }
            return nil
        }
    }

    private func refilled(_ bucket: Bucket, _ now: ContinuousClock.Instant) -> Bucket {
        let elapsed = Double((now - bucket.updated).nanoseconds) / 1e9
        return Bucket(tokens: min(Double(burst), bucket.tokens + elapsed * perSecond), updated: now)
    }
}
