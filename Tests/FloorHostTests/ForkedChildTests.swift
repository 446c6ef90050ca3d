import FloorCore
import Foundation
import Testing

/// A supervised render's child is floorhost forked, not started again (ChildLaunch, ForkedChild.swift): no
/// second exec, yet a crash and a hang in a real plugin end in the same output and messages as with a
/// spawned child, each attempt is a fork of the supervisor, the command runs on a thread the child started,
/// and the child holds only the descriptors a spawned child holds. Where the supervisor runs more than one
/// thread, the child is spawned.
struct ForkedChildTests {
    /// What the Badge plugin said about the process it ran in ("describe:height"), one attempt's worth.
    struct Described {
        var commandLine = ""
        /// "first" when the plugin was called on the process's first thread, "other" otherwise.
        var thread = ""
        /// Descriptor number: (mode, target), as /proc/self/fd shows them.
        var descriptors: [Int32: (mode: String, target: String)] = [:]

        /// Every attempt's description in `stderr`, in order.
        static func all(in stderr: String) -> [Described] {
            var attempts: [Described] = []
            for line in stderr.split(separator: "\n") where line.hasPrefix("describe: ") {
                let words = line.dropFirst("describe: ".count).split(separator: " ", maxSplits: 3)
                if words.first == "cmdline" {
                    attempts.append(Described(commandLine: String(line.dropFirst("describe: cmdline ".count))))
                } else if words.count == 2, words[0] == "thread", !attempts.isEmpty {
                    attempts[attempts.count - 1].thread = String(words[1])
                } else if words.count == 4, words[0] == "fd", let number = Int32(words[1]), !attempts.isEmpty {
                    attempts[attempts.count - 1].descriptors[number] = (String(words[2]), String(words[3]))
                }
            }
            return attempts
        }
    }

    @Test func theChildIsFloorhostForkedEveryAttemptAndHoldsOnlyWhatItIsHanded() throws {
        let setup = try CrashContainmentTests.Setup(badges: ["describe:height", "crash:height", "hang:height"])
        let arguments = [
            "--plugins", setup.plugins, "--plugin-cache", setup.folder.file("scan-cache.json"), setup.page,
            "--plugin-call-timeout", "1",
        ]
        let result = try floorhost(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Still here") && result.stdout.contains("describe:height"), "\(result.stdout)")
        for (badge, failure) in [(1, "crashed with SIGSEGV"), (2, "hung (no answer for 1 s)")] {
            #expect(
                result.stderr.contains(
                    "error: \(try setup.floor(badge + 1, badge: badge)): not shown: plugin com.floorkit.test.badge \(failure) in its height calculator on this floor; its last words on stderr: \"describe: "
                ), "\(result.stderr)")
        }
        // The crash ended the child by its signal at once: the runtime's backtracer, whose handlers the
        // supervisor installed at its start, did not run in the fork (it would print a backtrace).
        #expect(!result.stderr.contains("Backtrace"), "\(result.stderr)")

        // Three attempts (the first crashes, the second hangs, the third renders), each a fork of the
        // supervisor: the command line is the one floorhost was given, where a spawned child's would carry
        // --crash-record-fd and --skip-floor.
        let attempts = Described.all(in: result.stderr)
        #expect(attempts.count == 3, "\(result.stderr)")
        for attempt in attempts {
            #expect(attempt.commandLine == ([Repo.floorhostBinary] + arguments).joined(separator: " "))
            // The command runs on a thread the child started, never on the one that forked (whose cached
            // thread id is its parent's: ChildProcess.continueForkedChild).
            #expect(attempt.thread == "other")
            // stdin; 1 and 2 on the stderr pipe the supervisor reads (plugins' stdout goes to stderr:
            // HostOutput.shieldFromPlugins); HostOutput's own copies of the output (this test's stdout pipe)
            // and of stderr; the crash record. Nothing else: not the pipe's read end, nor the supervisor's
            // descriptors.
            let described = attempt.descriptors
            #expect(described.count == 6, "\(described)")
            let stderrPipe = try #require(described[2]?.target)
            #expect(stderrPipe.hasPrefix("pipe:") && described[1]?.target == stderrPipe)
            let others = described.filter { $0.key > 2 }.values
            #expect(others.filter { $0.mode == "w" && $0.target == stderrPipe }.count == 1, "\(described)")
            #expect(
                others.filter { $0.mode == "w" && $0.target.hasPrefix("pipe:") && $0.target != stderrPipe }.count == 1)
            #expect(
                others.filter { $0.mode == "rw" && $0.target.hasPrefix("/memfd:floorhost-crash-record") }.count == 1,
                "\(described)")
            #expect(!described.values.contains { $0.mode == "r" && $0.target == stderrPipe }, "\(described)")
        }
    }

    /// This test runner runs threads of its own: a launch that may fork spawns instead (a fork would leave
    /// the other threads' locks held in the child). The script exits 2 only when spawned with the
    /// supervisor's options; were the runner forked, its copy would end at once with 99, a failure here.
    @Test func aSupervisorOfManyThreadsSpawnsItsChild() {
        #expect(!ChildProcess.isSingleThreaded)
        let launch = ChildLaunch(
            program: "/bin/sh", arguments: ["-c", #"[ "$0" = --crash-record-fd ] && [ "$1" = 3 ] && exit 2"#],
            mayFork: true)
        let outcome = PageSupervisor.run(launch)
        if case .forkedChild = outcome { _exit(99) }
        #expect(outcome == .exited(2))
    }
}
