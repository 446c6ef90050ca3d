import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The clock load retries wait on: `now` in seconds (monotonic, any epoch) for the interactive front ends,
/// which wait by their own means (a poll timeout, a task's sleep) until a retry is due, and `wait(until:)`
/// for the batch CLI, which blocks. Tests inject one that records the waits and returns at once, so that
/// backoff is asserted without sleeping. Threading: any thread.
public protocol LoadClock: Sendable {
    var now: Double { get }
    /// Blocks the calling thread until `now` reaches `deadline`.
    func wait(until deadline: Double)
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
        if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
    }
}
