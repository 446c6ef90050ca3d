import FloorCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// How the host protects a render from plugins that crash or hang: each library that is new or changed
/// since it was last scanned is first loaded in a child process (which also decodes, lays out and draws
/// the library's sample floors), and only a library that survived that is opened in-process. What the
/// scan found is kept in a PluginScanCache, so a bad library is skipped with one line until its file
/// changes, and a good one loads without a child.
public struct PluginIsolation: Sendable {
    /// How to start the scanning child: program and leading arguments; the library path is appended. The
    /// CLI re-runs itself: ["/proc/self/exe", "scan-plugin"]. The child runs PluginScanner.scanHere.
    public var childCommand: [String]
    /// The scan cache file; nil remembers nothing between runs.
    public var cacheFile: String?
    /// Seconds a scan may take before the library counts as hung.
    public var timeout: Double

    public init(childCommand: [String], cacheFile: String? = PluginScanCache.defaultFile, timeout: Double = 10) {
        self.childCommand = childCommand
        self.cacheFile = cacheFile
        self.timeout = timeout
    }
}

public enum PluginScanner {
    /// Whether to open a library in this process, and what to tell about it.
    package enum Decision {
        /// Open it; `note` is a warning to show first (it could not be scanned).
        case load(note: Diagnostic?)
        /// Do not open it; the error line says why.
        case skip(Diagnostic)
    }

    /// Whether `library` may be opened in this process, scanning it in a child when the cache does not
    /// know its current file.
    package static func decide(_ library: String, isolation: PluginIsolation, cache: PluginScanCache) -> Decision {
        let cacheNote = cache.file.map { " (scan cache: \($0))" } ?? ""
        if let known = cache.entry(for: library) {
            guard known.verdict != .safe else { return .load(note: nil) }
            let when = Date(timeIntervalSince1970: known.scanned).formatted(.iso8601)
            return .skip(
                Diagnostic(
                    .error,
                    "\(library): skipped: when scanned at \(when) it \(known.reason ?? known.verdict.rawValue), and the file has not changed since; it is scanned again when it changes\(cacheNote)",
                    file: library))
        }
        let verdict: PluginScanCache.Verdict
        let reason: String?
        switch scan(library, isolation: isolation) {
        case .success(let found): (verdict, reason) = found
        case .failure(let failure):
            // Without a child there is no isolation to offer: load as before rather than lose the plugin,
            // say so, and remember nothing, so that the next run scans it.
            return .load(
                note: Diagnostic(.warning, "\(library): loaded without a scan: \(failure.message)", file: library))
        }
        cache.record(verdict, reason: reason, for: library)
        guard verdict != .safe else { return .load(note: nil) }
        return .skip(
            Diagnostic(
                .error,
                "\(library): skipped: scanned in a child process, it \(reason ?? verdict.rawValue); it is skipped until the file changes\(cacheNote)",
                file: library))
    }

    /// Scans `library` in a child: safe, or crashed / hung with what it was doing ("crashed with SIGSEGV
    /// while laying out its sample floors (expand, height)").
    package static func scan(_ library: String, isolation: PluginIsolation) -> Result<
        (PluginScanCache.Verdict, String?), ChildProcess.Failure
    > {
        var step = "starting"
        var finished = false
        let outcome: ChildProcess.Outcome
        do {
            outcome = try ChildProcess.run(isolation.childCommand + [library], timeout: isolation.timeout) { line in
                // Every step is progress: the deadline is for a call that stops answering, not for a plugin
                // whose samples have many rows (the child says a step per chunk of rows it draws).
                if line == doneLine {
                    finished = true
                } else if line.hasPrefix(stepPrefix) {
                    step = String(line.dropFirst(stepPrefix.count))
                    return true
                }
                return false
            }
        } catch {
            return .failure(error)
        }
        let lastWords = StderrTail.lastLines(of: outcome.stderr)
        let said = lastWords.isEmpty ? "" : "; its last words on stderr: \(StderrTail.quoted(lastWords))"
        switch outcome.ending {
        case .exited(0) where finished: return .success((.safe, nil))
        case .signaled(let signal):
            return .success((.crashed, "crashed with \(ChildProcess.signalName(signal)) while \(step)\(said)"))
        case .timedOut(let seconds):
            return .success((.hung, "hung (no answer for \(PrintfFormat.string("%g", seconds)) s) while \(step)"))
        case .exited(let status):
            return .success((.crashed, "ended the process (exit status \(status)) while \(step)\(said)"))
        }
    }

    /// What the scanning child says before each stage; the parent keeps the last as what the library was doing.
    package static let stepPrefix = "step: "
    /// Rows the scanning child draws between two steps.
    package static let rowsPerStep = 1000
    /// What the scanning child says when it got through every stage.
    package static let doneLine = "done"
}
