import Foundation

/// Keeps a plugin's crash on real page data from taking a render down. The supervising process loads no
/// plugin: it runs the render in a child (the same command plus `--crash-record FILE`), which writes the
/// output itself. When the child dies of a signal inside a plugin call, the crash record names the call
/// and the floor; the render runs again with that floor skipped (`--skip-floor`), so every floor a plugin
/// crashes on is left out in turn and the rest of the page is rendered. A child must write nothing before
/// its last plugin call has returned, so that an attempt that crashes leaves no output behind.
public enum RenderSupervisor {
    public enum Outcome: Equatable, Sendable {
        /// The last attempt exited with this status (after skipping the floors listed, if any).
        case exited(Int32)
        /// The child crashed outside any plugin call, or crashed again and again: the message says which.
        case failed(String)
    }

    /// Runs `program` with `arguments` (and the options above, placed before any `--`) until an attempt
    /// does not crash in a plugin, at most `attempts` times.
    public static func run(program: String, arguments: [String], attempts: Int = 32) -> Outcome {
        let split = arguments.firstIndex(of: "--") ?? arguments.endIndex
        let record = NSTemporaryDirectory() + "floorhost-crash-record-\(getpid())"
        defer { unlink(record) }
        var skipped: [SkippedFloor] = []
        for _ in 0..<attempts {
            let ending: ChildProcess.Ending
            do {
                try CrashRecord.create(at: record)
                let options = ["--crash-record", record] + skipped.flatMap { ["--skip-floor", $0.argument] }
                ending = try ChildProcess.runInheritingOutput([program] + arguments[..<split] + options + arguments[split...])
            } catch let failure as CrashRecord.Failure {
                return .failed("\(failure.message); set TMPDIR to a writable folder, or render with --no-plugin-isolation")
            } catch let failure as ChildProcess.Failure {
                return .failed(failure.message)
            } catch {
                return .failed("\(error)")
            }
            guard case .signaled(let signal) = ending else {
                if case .exited(let status) = ending { return .exited(status) }
                return .failed("the rendering process ended in an unexpected way")
            }
            // Stopped from outside (Ctrl-C, kill, a closed output pipe): not a crash, and no second attempt.
            guard crashSignals.contains(signal) else { return .exited(128 + signal) }
            guard let last = try? CrashRecord(sharedFile: record).lastCall else {
                return .failed("the rendering process crashed with \(ChildProcess.signalName(signal)) outside any plugin call; this is a bug in floorhost")
            }
            let skip = SkippedFloor(origin: last.floor, call: last.call, signal: signal)
            guard !skipped.contains(where: { $0.origin == skip.origin }) else {
                return .failed("the rendering process crashed with \(ChildProcess.signalName(signal)) in a plugin's \(last.call.selectorName) on a floor it had already skipped; this is a bug in floorhost")
            }
            skipped.append(skip)
        }
        return .failed("gave up after \(attempts) attempts: plugins crashed on \(attempts) floors")
    }

    /// The signals a faulty plugin raises on itself.
    static let crashSignals: Set<Int32> = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS]
}
