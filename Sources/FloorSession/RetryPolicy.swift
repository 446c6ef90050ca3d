import FloorRuntime

/// How a failed next-page load is tried again by itself (`--retry N`): up to `attempts` more times, each
/// after an exponential backoff with jitter (the k-th retry waits between half and all of
/// `base * 2^(k-1)`, at most `cap` seconds), or after what the server's `Retry-After` asked when it asked
/// for longer, up to `maxRetryAfter`. Only failures where the page did not arrive are retried
/// (`PageError.retryable`: a refused or reset connection, a time limit, a 5xx, 408, 429, a missing file);
/// a page that arrived and is unusable, or was refused by the trust rules, fails at once. After the policy
/// gives up, a manual retry (the view's R, the preview's button) still starts the load again.
/// Threading: a value; `jitter` may be called from any thread.
public struct RetryPolicy: Sendable {
    public var attempts: Int
    public var base: Double
    public var cap: Double
    /// A server asking for longer than this is not waited for: the load fails, saying what it asked.
    public var maxRetryAfter: Double
    /// A number in 0..<1 per retry (injected by tests so that waits are exact).
    public var jitter: @Sendable () -> Double

    public init(
        attempts: Int = 0, base: Double = 0.25, cap: Double = 30, maxRetryAfter: Double = 120,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.attempts = max(0, attempts)
        self.base = max(0, base)
        self.cap = max(0, cap)
        self.maxRetryAfter = max(0, maxRetryAfter)
        self.jitter = jitter
    }

    /// What to do after failure number `failures` (1 for the first) of one load.
    public enum Decision: Sendable, Equatable {
        /// Try again after this many seconds.
        case retry(after: Double)
        /// Stop; `why` is nil when the failure is not one to retry or no attempt is left, else what stopped it.
        case giveUp(why: String?)
    }

    public func decide(after error: PageError, failures: Int) -> Decision {
        guard error.retryable, failures <= attempts else { return .giveUp(why: nil) }
        let backoff = min(cap, base * Double(1 << min(failures - 1, 30)))
        let wait = backoff / 2 + backoff / 2 * min(max(jitter(), 0), 1)
        guard let asked = error.retryAfter else { return .retry(after: wait) }
        guard asked <= maxRetryAfter else {
            return .giveUp(
                why:
                    "not retried: the server asked to wait \(RemotePageClient.seconds(asked)), longer than floorhost waits (\(RemotePageClient.seconds(maxRetryAfter)))"
            )
        }
        return .retry(after: max(wait, asked))
    }
}
