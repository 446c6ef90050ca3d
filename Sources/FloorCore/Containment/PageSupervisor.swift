import Foundation

/// Keeps a plugin's crash or hang on real page data from taking a command that processes a page (render,
/// check) down. The supervising process loads no plugin: it runs the command in a child (the same command
/// plus `--crash-record-fd 3`), which writes the output itself and notes every plugin call in the shared
/// crash record (in memory only: no file is left behind, and the child dies with this process). When the
/// child ends inside a plugin call (a signal, or the plugin's own exit or _exit), or stays in one call
/// longer than the call timeout (then it is killed), the record names the call and the floor, and the
/// command runs again with that floor skipped (`--skip-floor`): every floor a plugin fails on is left out
/// in turn and the rest of the page is processed. Outside plugin calls the child's exit status is the
/// outcome when it is one floorhost documents (`statuses`), and a failure otherwise.
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
    public static func run(program: String, arguments: [String], callTimeout: Double = 10, attempts: Int = 32)
        -> Outcome
    {
        let record: CrashRecord
        do {
            record = try CrashRecord.createShared()
        } catch {
            return .failed("\(error.message); render with --no-plugin-isolation")
        }
        var skipped: [SkippedFloor] = []
        // The child's stderr passes through here, so that a crash can quote its last lines.
        let tail = StderrTail()
        for _ in 0..<attempts {
            record.reset()
            tail.reset()
            let options =
                ["--crash-record-fd", String(childRecordDescriptor)]
                + skipped.flatMap { ["--skip-floor", $0.argument] }
            var seen = record.snapshot
            var since = Date()
            let ending: ChildProcess.Ending
            do {
                ending = try ChildProcess.runInheritingOutput(
                    [program] + ChildArguments.inserting(options, into: arguments),
                    passing: [record.descriptor: childRecordDescriptor],
                    stderrTail: tail
                ) {
                    let now = record.snapshot
                    if now != seen {
                        (seen, since) = (now, Date())
                        return nil
                    }
                    return record.lastCall != nil && Date().timeIntervalSince(since) >= callTimeout ? callTimeout : nil
                }
            } catch {
                return .failed(error.message)
            }
            let failure: SkippedFloor.Failure
            let last = record.lastCall
            switch ending {
            case .exited(let status) where last == nil:
                guard statuses.contains(status) else {
                    return .failed(
                        "the supervised process exited with status \(status) after its last plugin call (a plugin's exit handler, or a thread of its own, may have ended it)"
                    )
                }
                return .exited(status)
            // Stopped from outside (kill, a closed output pipe) between plugin calls: not a plugin's fault, no
            // second attempt. (Ctrl-C and a kill of floorhost itself end this process too, and the child with it.)
            case .signaled(let signal) where last == nil && !crashSignals.contains(signal): return .exited(128 + signal)
            case .exited(let status): failure = .exited(status: status)
            case .signaled(let signal): failure = .crashed(signal: signal)
            case .timedOut(let seconds): failure = .hung(seconds: seconds)
            }
            guard let last else {
                return .failed("the supervised process \(failure) outside any plugin call; this is a bug in floorhost")
            }
            guard !skipped.contains(where: { $0.origin == last.floor }) else {
                return .failed(
                    "the supervised process \(failure) in a plugin's \(last.call.selectorName) on a floor it had already skipped; this is a bug in floorhost"
                )
            }
            skipped.append(SkippedFloor(origin: last.floor, call: last.call, failure: failure, said: tail.lastLines()))
        }
        return .failed("gave up after \(attempts) attempts: plugins failed on \(attempts) floors")
    }

    /// The exit statuses floorhost documents: 0 done, 1 a failure, 2 an unusable page, 64 a usage error, 130
    /// `view` ended by Ctrl-C (128 + SIGINT, as a shell reports an interrupted program).
    package static let statuses: Set<Int32> = [0, 1, 2, 64, 130]

    /// Where the child finds the crash record (`--crash-record-fd`).
    package static let childRecordDescriptor: Int32 = 3

    /// The signals a faulty plugin raises on itself.
    package static let crashSignals: Set<Int32> = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS]
}
