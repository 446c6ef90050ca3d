import Foundation
import Testing

/// A real terminal for the tests of `floorhost view`: a tmux server of its own (its own socket, so tests
/// never touch a person's tmux) with one detached session of a fixed size running `command` in a shell.
/// Keys go in with send-keys; what a person would see comes out of capture-pane. The server is killed when
/// the value goes away.
final class Tmux {
    let socket = "floorkit-test-\(UUID().uuidString)"

    private let capture = NSTemporaryDirectory() + "floorkit-tmux-\(UUID().uuidString).txt"

    init(_ command: String, columns: Int = 80, lines: Int = 30) throws {
        let status = tmux(["new-session", "-d", "-s", "view", "-x", String(columns), "-y", String(lines), command])
        if status != 0 { Issue.record("tmux new-session failed with status \(status)") }
    }

    deinit {
        _ = tmux(["kill-server"])
        unlink(capture)
    }

    /// Keys by tmux's names ("Tab", "Enter", "Space", "PageDown", "BTab") or literal text with `literal`.
    func send(_ keys: String..., literal: Bool = false) throws {
        _ = tmux(["send-keys", "-t", "view"] + (literal ? ["-l"] : []) + keys)
    }

    func resize(columns: Int, lines: Int) throws {
        _ = tmux(["resize-window", "-t", "view", "-x", String(columns), "-y", String(lines)])
    }

    /// The screen as text, one string a line, trailing spaces trimmed; with `escapes`, with the SGR sequences
    /// that set each character's colour and attributes.
    func screen(escapes: Bool = false) throws -> [String] {
        _ = tmux(["capture-pane", "-p"] + (escapes ? ["-e"] : []) + ["-t", "view"], output: capture)
        // capture-pane ends every line, the last included, with a newline.
        return try String(contentsOfFile: capture, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .dropLast().map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
    }

    /// Waits until the screen satisfies `condition`, for at most `seconds`; returns the last screen seen.
    @discardableResult
    func waitFor(_ what: String, seconds: Double = 20, _ condition: ([String]) -> Bool) throws -> [String] {
        var last: [String] = []
        let met = try eventually(seconds: seconds) { () throws -> Bool? in
            last = try screen()
            return condition(last) ? true : nil
        }
        if met == nil {
            Issue.record("timed out waiting for \(what); the screen was:\n\(last.joined(separator: "\n"))")
        }
        return last
    }

    /// Waits until some line contains `text`.
    @discardableResult
    func waitFor(_ text: String, seconds: Double = 20) throws -> [String] {
        try waitFor("'\(text)'", seconds: seconds) { $0.contains { $0.contains(text) } }
    }

    /// Runs tmux through system(3), its output to `output` (else /dev/null): a tmux server started by
    /// `new-session` keeps the descriptors it inherited, so a pipe to it would never reach end of file.
    private func tmux(_ arguments: [String], output: String = "/dev/null") -> Int32 {
        let quoted = (["tmux", "-L", socket, "-f", "/dev/null"] + arguments).map {
            "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        return system(quoted.joined(separator: " ") + " </dev/null >'\(output)' 2>/dev/null")
    }
}
