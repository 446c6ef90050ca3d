#if canImport(Glibc)
import Glibc
#endif

/// The open-file limit `serve` runs under. The soft limit (often 1,024) is what a burst of connections
/// runs into first; the hard limit is what the administrator allows. `serve` raises the soft limit to the
/// hard one as it starts, and its connection cap (ConnectionLimits) stays below what is left.
package enum DescriptorLimit {
    /// Raises the soft RLIMIT_NOFILE to the hard limit; the soft limit after (unchanged when it could not).
    @discardableResult
    package static func raiseToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)  // RLIM_INFINITY (all ones) clamps to Int.max
    }
}
