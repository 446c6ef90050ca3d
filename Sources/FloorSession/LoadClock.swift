import Dispatch
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The clock load retries wait on (LoadLoop): `now` in seconds (monotonic, any epoch), `after` for the
/// interactive front ends, which must not block, and `wait(until:)` for the batch CLI, which blocks. Tests
/// inject one that records the waits and returns at once, so that backoff is asserted without sleeping.
/// Threading: any thread.
public protocol LoadClock: Sendable {
    var now: Double { get }
    /// Blocks the calling thread until `now` reaches `deadline`.
    func wait(until deadline: Double)
    /// Runs `body` once `now` reaches `deadline`, without blocking the caller (LoadLoop: a retry coming
    /// due, a load's latency). The default measures the wait on `now` and sleeps it on a Dispatch timer.
    func after(_ deadline: Double, _ body: @escaping @Sendable () -> Void)
}

extension LoadClock {
    /// On a Dispatch thread, not on the cooperative pool: work blocking the pool's few threads elsewhere in
    /// the process cannot hold a retry back.
    public func after(_ deadline: Double, _ body: @escaping @Sendable () -> Void) {
        let wait = deadline - now
        guard wait > 0 else { return DispatchQueue.global().async(execute: body) }
        DispatchQueue.global().asyncAfter(deadline: .now() + min(wait, 3600), execute: body)
    }
}

/// CLOCK_MONOTONIC, and a real sleep.
public struct SystemLoadClock: LoadClock {
    public init() {}

    public var now: Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    public func wait(until deadline: Double) {
        let seconds = deadline - now
        guard seconds > 0 else { return }
        var wanted = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var left = timespec()
        while nanosleep(&wanted, &left) != 0 && errno == EINTR { wanted = left }
    }
}
