import Dispatch
import FloorCore
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Checks many pages on every core: the pages are cut into `jobs` contiguous shares, each share is checked
/// by a child process (a `floorhost check --share` run, itself supervised as any check is, so a plugin crash
/// costs only the floor it happened on), all children run at once, and their reports (PageBatch.encode, on
/// their stdout) are merged here in the pages' order. This process loads no plugin. Threading: blocks the
/// calling thread; one thread per share while it runs.
public enum ParallelCheck {
    public struct Failure: Error, Sendable { public let message: String }

    /// `command(share)` is the argument vector (program first) that checks `share`.
    public static func run(files: [String], jobs: Int, command: ([String]) -> [String]) throws(Failure)
        -> (checks: [PageCheck], pluginDiagnostics: [Diagnostic])
    {
        let count = max(1, min(jobs, files.count))
        let shares = (0..<count).map { i in Array(files[(files.count * i / count)..<(files.count * (i + 1) / count)]) }
        let commands = shares.map(command)
        let results = Results(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { i in
            results.set(i, runShare(commands[i], pages: shares[i].count))
        }
        var checks: [PageCheck] = []
        var plugins: [Diagnostic]?
        for (i, result) in results.all.enumerated() {
            switch result {
            case .success(let report):
                checks += report.checks
                if plugins == nil { plugins = report.pluginDiagnostics }  // every share loaded the same plugins
            case .failure(let failure):
                throw Failure(
                    message:
                        "checking pages \(files.count * i / count + 1) to \(files.count * (i + 1) / count) (from \(shares[i].first ?? "")) failed: \(failure.message)"
                )
            case nil:
                throw Failure(message: "a share of the pages was not checked; this is a bug in floorhost")
            }
        }
        return (checks, plugins ?? [])
    }

    private static func runShare(_ arguments: [String], pages: Int) -> Result<
        (checks: [PageCheck], pluginDiagnostics: [Diagnostic]), Failure
    > {
        let output: (read: Int32, write: Int32)
        do {
            output = try ChildProcess.pipe()
        } catch {
            return .failure(Failure(message: error.message))
        }
        let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { if input >= 0 { close(input) } }
        let pid: pid_t
        do {
            pid = try ChildProcess.start(arguments, standardInput: input, standardOutput: output.write)
        } catch {
            close(output.read)
            close(output.write)
            return .failure(Failure(message: error.message))
        }
        close(output.write)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(output.read, $0.baseAddress, $0.count) }
            if n > 0 {
                bytes += buffer[0..<n]
                continue
            }
            if n < 0 && errno == EINTR { continue }
            break
        }
        close(output.read)
        let ending = ChildProcess.waitForEnd(pid)
        guard ending == .exited(0) else {
            return .failure(
                Failure(
                    message:
                        "its process \(ending == .exited(2) ? "found the input unusable" : "ended with \(ending)") (its messages are above)"
                ))
        }
        do {
            let report = try PageBatch.decode(bytes)
            guard report.checks.count == pages else {
                return .failure(Failure(message: "its report lists \(report.checks.count) checks for \(pages) pages"))
            }
            return .success(report)
        } catch {
            return .failure(Failure(message: error.message))
        }
    }

    private final class Results: @unchecked Sendable {
        private let lock = HostLock()
        private var results: [Result<(checks: [PageCheck], pluginDiagnostics: [Diagnostic]), Failure>?]
        init(count: Int) { results = Array(repeating: nil, count: count) }
        func set(_ i: Int, _ result: Result<(checks: [PageCheck], pluginDiagnostics: [Diagnostic]), Failure>) {
            lock.lock()
            results[i] = result
            lock.unlock()
        }
        var all: [Result<(checks: [PageCheck], pluginDiagnostics: [Diagnostic]), Failure>?] {
            lock.lock()
            defer { lock.unlock() }
            return results
        }
    }
}
