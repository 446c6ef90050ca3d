import Foundation
import Testing

/// A real terminal for the tests of `floorhost view`: a tmux server of its own (its own socket, so tests
/// never touch a person's tmux) with one detached session of a fixed size running `command` in a shell.
/// Keys go in with send-keys; what a person would see comes out of capture-pane. The server is killed when
/// the value goes away.
final class Tmux {
    let socket = "floorkit-test-\(UUID().uuidString)"

    init(_ command: String, columns: Int = 80, lines: Int = 30) throws {
        // The server must not hold this process's pipes: its stdout goes to /dev/null too.
        let started = try run("/bin/sh", ["-c", #"exec tmux -L "$0" -f /dev/null "$@" </dev/null >/dev/null 2>&1"#, socket,
                                          "new-session", "-d", "-s", "view", "-x", String(columns), "-y", String(lines), command])
        if started.status != 0 { Issue.record("tmux new-session failed with status \(started.status)") }
    }

    deinit { _ = try? tmux(["kill-server"]) }

    /// Keys by tmux's names ("Tab", "Enter", "Space", "PageDown", "BTab") or literal text with `literal`.
    func send(_ keys: String..., literal: Bool = false) throws {
        _ = try tmux(["send-keys", "-t", "view"] + (literal ? ["-l"] : []) + keys)
    }

    func resize(columns: Int, lines: Int) throws {
        _ = try tmux(["resize-window", "-t", "view", "-x", String(columns), "-y", String(lines)])
    }

    /// The screen as text, one string a line, trailing spaces trimmed.
    func screen() throws -> [String] {
        try tmux(["capture-pane", "-p", "-t", "view"]).stdout.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
    }

    /// Waits until the screen satisfies `condition`, for at most `seconds`; returns the last screen seen.
    /// The view redraws on its own events (a key, a load, a file change), which have no descriptor this
    /// process could wait on, so the screen is read again every 50 ms until the deadline.
    @discardableResult
    func waitFor(_ what: String, seconds: Double = 20, _ condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        var last = try screen()
        while !condition(last) {
            guard Date() < deadline else {
                Issue.record("timed out waiting for \(what); the screen was:\n\(last.joined(separator: "\n"))")
                return last
            }
            _ = poll(nil, 0, 50)
            last = try screen()
        }
        return last
    }

    /// Waits until some line contains `text`.
    @discardableResult
    func waitFor(_ text: String, seconds: Double = 20) throws -> [String] {
        try waitFor("'\(text)'", seconds: seconds) { $0.contains { $0.contains(text) } }
    }

    /// Runs tmux through a shell with stdin and stderr of its own: a tmux server started by `new-session`
    /// keeps whatever descriptors it inherited, and a pipe it holds would never reach end of file.
    private func tmux(_ arguments: [String]) throws -> ProcessResult {
        try run("/bin/sh", ["-c", #"exec tmux -L "$0" -f /dev/null "$@" </dev/null 2>/dev/null"#, socket] + arguments)
    }
}
