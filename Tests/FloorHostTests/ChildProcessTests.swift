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

    /// A child floorhost dies with its parent (PR_SET_PDEATHSIG), and to the kernel the parent is the thread
    /// that started it: started from a thread that then ends, the child must live on (SpawningThread). Before,
    /// it was killed as that thread ended, which is how a serve worker started from a retired pool thread
    /// went. The thread ends only once the child is running (it has printed where it listens).
    @Test func aChildOutlivesTheThreadThatStartedIt() throws {
        let folder = NSTemporaryDirectory() + "spawn-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let null = open("/dev/null", O_RDWR)
        defer { close(null) }
        var output: [Int32] = [0, 0]
        try #require(pipe(&output) == 0)
        let (reading, writing) = (output[0], output[1])
        defer { close(reading) }
        let started = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var pid: pid_t = 0
        nonisolated(unsafe) var starter: pid_t = 0
        nonisolated(unsafe) var said = ""
        let thread = Thread {
            let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
            starter = pid_t(me.split(separator: "/").last ?? "") ?? 0
            pid =
                (try? ChildProcess.start(
                    [Repo.floorhostBinary, "serve", "--plugins", folder, "--port", "0", folder],
                    standardInput: null, standardOutput: writing)) ?? 0
            close(writing)
            var byte: UInt8 = 0
            while read(reading, &byte, 1) == 1, byte != 10 { said.append(Character(Unicode.Scalar(byte))) }
            started.signal()
        }
        thread.start()
        started.wait()
        try #require(pid > 0)
        defer {
            kill(pid, SIGKILL)
            _ = ChildProcess.waitForEnd(pid)
        }
        #expect(said.contains("http://127.0.0.1:"), "\(said)")
        // The starting thread is gone from this process's tasks...
        let ended = (0..<500).first { _ in
            !FileManager.default.fileExists(atPath: "/proc/self/task/\(starter)") || poll(nil, 0, 10) < 0
        }
        #expect(ended != nil, "the thread that started the child did not end")
        // ...and for the next second the child is still running (it was killed at once before).
        func running() -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
            return stat.split(separator: ")").last?.split(separator: " ").first != "Z"
        }
        for _ in 0..<50 {
            #expect(running(), "the child died with the thread that started it")
            if !running() { break }
            _ = poll(nil, 0, 20)
        }
    }
}
