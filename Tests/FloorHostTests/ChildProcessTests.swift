import FloorCore
import FloorSession
import Foundation
import Testing

/// The isolation primitive: how a child ended (exit status, signal, killed after a deadline), its lines
/// as they come, and the end of its stderr, with real processes.
struct ChildProcessTests {
    func sh(_ script: String, timeout: Double = 30, resetOnLine: Bool = false) throws -> (
        ChildProcess.Outcome, [String]
    ) {
        var lines: [String] = []
        let outcome = try ChildProcess.run(["/bin/sh", "-c", script], timeout: timeout) { line in
            lines.append(line)
            return resetOnLine
        }
        return (outcome, lines)
    }

    @Test func exitStatusLinesAndStderr() throws {
        let (outcome, lines) = try sh("echo one; echo two; echo 'last words' >&2; exit 3")
        #expect(outcome.ending == .exited(3))
        #expect(lines == ["one", "two"])
        #expect(ChildProcess.lastLine(outcome.stderr) == "last words")
    }

    @Test func aSignalIsReportedAsSuch() throws {
        let (outcome, lines) = try sh("echo before; kill -SEGV $$")
        #expect(outcome.ending == .signaled(SIGSEGV))
        #expect(ChildProcess.signalName(SIGSEGV) == "SIGSEGV")
        #expect(lines == ["before"], "what was said before the crash arrives")
        let (aborted, _) = try sh("kill -ABRT $$")
        #expect(aborted.ending == .signaled(SIGABRT))
    }

    @Test func aHangIsKilledAtTheDeadline() throws {
        let (outcome, lines) = try sh("echo started; exec sleep 60", timeout: 0.5)
        #expect(outcome.ending == .timedOut(seconds: 0.5))
        #expect(lines == ["started"])
    }

    @Test func progressMovesTheDeadline() throws {
        // Four steps of 0.3 s each outlast a 0.6 s deadline only because each line moves it.
        let (outcome, lines) = try sh("for i in 1 2 3 4; do echo $i; sleep 0.3; done", timeout: 0.6, resetOnLine: true)
        #expect(outcome.ending == .exited(0))
        #expect(lines == ["1", "2", "3", "4"])
    }

    @Test func aProgramThatCannotStartIsAnError() {
        #expect(throws: ChildProcess.Failure.self) {
            try ChildProcess.run(["/nonexistent/program"], timeout: 1) { _ in false }
        }
    }
}
