import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Keeps a plugin's crash or hang on real page data from taking a command that processes a page (render,
/// check) down. The supervising process loads no plugin: it runs the command in a child, which writes the
/// output itself and notes every plugin call in the shared crash record (in memory only: no file is left
/// behind, and the child dies with this process). The child is started as `ChildLaunch` chooses: the
/// command spawned again with `--crash-record-fd 3` and `--skip-floor`, or this process forked, which
/// returns from `run` as `.forkedChild` with those options (the record at its number here) and runs the
/// command with them itself, without a second process start. When the child ends inside a plugin call (a
/// signal, or the plugin's own exit or _exit), or stays in one call longer than the call timeout (then it
/// is killed), the record names the call and the floor, and the command runs again in a new child, started
/// from this process the same way, with that floor skipped: every floor a plugin fails on is left out in
/// turn and the rest of the page is processed. Outside plugin calls the child's exit status is the outcome
/// when it is one floorhost documents (`statuses`), and a failure otherwise; a child that noted its status in the
/// record once its output was written (`CrashRecord.markFinished`) has ended with that status when its stderr
/// ends, and is not waited for (what runs in it after that, its exit handlers among them, decides nothing).
/// A child must write nothing before its last plugin call has returned, so that an attempt that failed
/// leaves no output behind.
public enum PageSupervisor {
    public enum Outcome: Equatable, Sendable {
        /// The last attempt exited with this status (after skipping the floors listed, if any), or was
        /// stopped from outside by a signal (128 + the signal's number).
        case exited(Int32)
        /// The child crashed outside any plugin call, or failed again and again: the message says which.
        case failed(String)
        /// Only in a forked child: this process is the child, and runs the command with `options` added, the
        /// options a spawned child is given (`--crash-record-fd` with the record's descriptor here, and
        /// `--skip-floor` for each floor to skip), as a spawned child would but without its start.
        case forkedChild(options: [String])
    }

    /// Runs `program` with `arguments` (and the options above, placed before any `--`), spawned, until an
    /// attempt does not fail in a plugin: `run(_:callTimeout:attempts:)` with `ChildLaunch.spawning`.
    public static func run(program: String, arguments: [String], callTimeout: Double = 10, attempts: Int = 32)
        -> Outcome
    {
        run(.spawning(program, arguments), callTimeout: callTimeout, attempts: attempts)
    }

    /// Runs the child `launch` starts until an attempt does not fail in a plugin, at most `attempts` times.
    /// A plugin call that makes no progress for `callTimeout` seconds counts as hung.
    public static func run(_ launch: ChildLaunch, callTimeout: Double = 10, attempts: Int = 32) -> Outcome {
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
            var seen = record.snapshot
            var since = Date()
            let ending: ChildProcess.Ending
            do {
                let started = try launch.start(
                    options: SupervisorOptions(crashRecord: childRecordDescriptor, skipping: skipped).arguments,
                    passing: [record.descriptor: childRecordDescriptor], pipingStderr: true)
                guard let child = started else {
                    return .forkedChild(
                        options: SupervisorOptions(crashRecord: record.handOver(), skipping: skipped).arguments)
                }
                ending = child.wait(
                    stderrTail: tail,
                    isStuck: {
                        let now = record.snapshot
                        if now != seen {
                            (seen, since) = (now, Date())
                            return nil
                        }
                        return record.lastCall != nil && Date().timeIntervalSince(since) >= callTimeout
                            ? callTimeout : nil
                    }, finished: { record.lastCall == nil ? record.finishedStatus : nil })
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

    /// Where a spawned child finds the crash record (`--crash-record-fd`).
    package static let childRecordDescriptor: Int32 = 3

    /// The signals a faulty plugin raises on itself.
    package static let crashSignals: Set<Int32> = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS]
}
