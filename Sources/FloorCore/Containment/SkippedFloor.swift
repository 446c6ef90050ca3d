import FoundationEssentials

/// A floor a previous attempt at this command could not get past: its plugin crashed on it, or hung. The
/// next attempt shows a placeholder in its place and says why, instead of calling the plugin again.
/// Passed from PageSupervisor to the child as `--skip-floor PAGE:FLOOR:CALL:HOW[:SAID]`, where HOW is
/// the signal's number, `exit-STATUS` or `hung-SECONDS`: `0:2:height:11`, `0:1:cell:exit-0`, `1:0:decode:hung-10`,
/// and SAID, when present, is the failed process's last stderr lines (base64 of the lines joined by newlines).
public struct SkippedFloor: Hashable, Sendable {
    public enum Failure: Hashable, Sendable, CustomStringConvertible {
        /// The process died of `signal` in the call: a crash (SIGSEGV) or a signal the plugin raised (SIGTERM).
        case crashed(signal: Int32)
        /// The plugin ended the process itself (exit, _exit) in the call.
        case exited(status: Int32)
        case hung(seconds: Double)

        /// "crashed with SIGSEGV", "ended the process with SIGTERM", "ended the process (exit status 3)",
        /// "hung (no answer for 10 s)".
        public var description: String {
            switch self {
            case .crashed(let signal) where PageSupervisor.crashSignals.contains(signal):
                "crashed with \(ChildProcess.signalName(signal))"
            case .crashed(let signal): "ended the process with \(ChildProcess.signalName(signal))"
            case .exited(let status): "ended the process (exit status \(status))"
            case .hung(let seconds): "hung (no answer for \(PrintfFormat.string("%g", seconds)) s)"
            }
        }
    }

    public let origin: FloorOrigin
    public let call: PluginCall
    public let failure: Failure
    /// The failed process's last lines on stderr (the plugin's own last words, as a rule: a Swift
    /// `Fatal error: ... File.swift:115`), oldest first; empty when it wrote nothing.
    public let said: [String]

    public init(origin: FloorOrigin, call: PluginCall, failure: Failure, said: [String] = []) {
        self.origin = origin
        self.call = call
        self.failure = failure
        self.said = said
    }

    public init?(argument: String) {
        let parts = argument.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4 || parts.count == 5, let page = Int32(parts[0]), let floor = Int32(parts[1]), page >= 0,
            floor >= 0,
            let call = PluginCall(argument: parts[2])
        else { return nil }
        let failure: Failure
        if let signal = Int32(parts[3]) {
            failure = .crashed(signal: signal)
        } else if parts[3].hasPrefix("exit-"), let status = Int32(parts[3].dropFirst(5)) {
            failure = .exited(status: status)
        } else if parts[3].hasPrefix("hung-"), let seconds = Double(parts[3].dropFirst(5)), seconds > 0 {
            failure = .hung(seconds: seconds)
        } else {
            return nil
        }
        var said: [String] = []
        if parts.count == 5 {
            guard let data = Data(base64Encoded: parts[4]) else { return nil }
            said = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        self.init(origin: FloorOrigin(page: page, floor: floor), call: call, failure: failure, said: said)
    }

    public var argument: String {
        let how =
            switch failure {
            case .crashed(let signal): "\(signal)"
            case .exited(let status): "exit-\(status)"
            case .hung(let seconds): "hung-\(PrintfFormat.string("%g", seconds))"
            }
        let words = said.isEmpty ? "" : ":" + Data(said.joined(separator: "\n").utf8).base64EncodedString()
        return "\(origin.page):\(origin.floor):\(call.argument):\(how)\(words)"
    }

    /// "; its last words on stderr: \"Fatal error: ...\"", or "" when it said nothing.
    package var lastWords: String {
        said.isEmpty ? "" : "; its last words on stderr: \(StderrTail.quoted(said))"
    }

    /// "crashed with SIGSEGV in its height calculator", "hung (no answer for 10 s) in its decoder".
    package var what: String { "\(failure) in its \(call.selectorName)" }
}
