import Foundation

/// Keeps a plugin's crash or hang on real page data from taking a command that processes a page (render,
/// check) down. The supervising process loads no plugin: it runs the command in a child (the same command
/// plus `--crash-record FILE`), which writes the output itself and notes every plugin call in the shared
/// crash record. When the child dies of a signal inside a plugin call, or stays in one call longer than the
/// call timeout (then it is killed), the record names the call and the floor, and the command runs again
/// with that floor skipped (`--skip-floor`): every floor a plugin fails on is left out in turn and the rest
/// of the page is processed.
/// A child must write nothing before its last plugin call has returned, so that an attempt that failed
/// leaves no output behind.
public enum PageSupervisor {
    public enum Outcome: Equatable, Sendable {
        /// The last attempt exited with this status (after skipping the floors listed, if any), or was
        /// stopped from outside by a signal (128 + the signal's number).
        case exited(Int32)
        /// The child crashed outside any plugin call, or failed again and again: the message says which.
        case failed(String)
    }

    /// Runs `program` with `arguments` (and the options above, placed before any `--`) until an attempt
    /// does not fail in a plugin, at most `attempts` times. A plugin call that makes no progress for
    /// `callTimeout` seconds counts as hung.
    public static func run(program: String, arguments: [String], callTimeout: Double = 10, attempts: Int = 32) -> Outcome {
        let split = arguments.firstIndex(of: "--") ?? arguments.endIndex
        // Unique per call: supervisors may run side by side in one process (the tests do).
        let path = NSTemporaryDirectory() + "floorhost-crash-record-\(getpid())-\(UUID().uuidString)"
        defer { unlink(path) }
        let record: CrashRecord
        do {
            try CrashRecord.create(at: path)
            record = try CrashRecord(sharedFile: path)
        } catch {
            return .failed("\(error.message); set TMPDIR to a writable folder, or render with --no-plugin-isolation")
        }
        var skipped: [SkippedFloor] = []
        for _ in 0..<attempts {
            record.reset()
            let options = ["--crash-record", path] + skipped.flatMap { ["--skip-floor", $0.argument] }
            var seen = record.snapshot, since = Date()
            let ending: ChildProcess.Ending
            do {
                ending = try ChildProcess.runInheritingOutput([program] + arguments[..<split] + options + arguments[split...]) {
                    let now = record.snapshot
                    if now != seen { (seen, since) = (now, Date()); return nil }
                    return record.lastCall != nil && Date().timeIntervalSince(since) >= callTimeout ? callTimeout : nil
                }
            } catch {
                return .failed(error.message)
            }
            let failure: SkippedFloor.Failure
            switch ending {
            case .exited(let status): return .exited(status)
            // Stopped from outside (Ctrl-C, kill, a closed output pipe): not a plugin's fault, no second attempt.
            case .signaled(let signal) where !crashSignals.contains(signal): return .exited(128 + signal)
            case .signaled(let signal): failure = .crashed(signal: signal)
            case .timedOut(let seconds): failure = .hung(seconds: seconds)
            }
            guard let last = record.lastCall else {
                return .failed("the supervised process \(failure) outside any plugin call; this is a bug in floorhost")
            }
            guard !skipped.contains(where: { $0.origin == last.floor }) else {
                return .failed("the supervised process \(failure) in a plugin's \(last.call.selectorName) on a floor it had already skipped; this is a bug in floorhost")
            }
            skipped.append(SkippedFloor(origin: last.floor, call: last.call, failure: failure))
        }
        return .failed("gave up after \(attempts) attempts: plugins failed on \(attempts) floors")
    }

    /// The signals a faulty plugin raises on itself.
    static let crashSignals: Set<Int32> = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS]
}
