import FloorCore
import FloorRuntime
import FloorSession
import Foundation
import Testing

/// A plugin bug that only real page data reaches (its samples pass the scan) crashes the rendering child,
/// not floorhost: the floor it crashed on is left out with an error naming the plugin, the selector and
/// the signal, and the rest of the page is rendered.
struct CrashContainmentTests {
    /// A Title floor, then Badge floors with these texts; a Badge plugin built with CRASHES_ON_DATA, which
    /// crashes in the selector a text names ("crash:height").
    struct Setup {
        let folder: TemporaryFolder
        let plugins: String
        let page: String

        init(badges: [String], next: [String]? = nil) throws {
            folder = try TemporaryFolder("containment")
            plugins = try folder.installShippedPlugins(["Title"])
            try compileCPlugin(to: plugins + "/libBadge.so", defines: ["CRASHES_ON_DATA"])
            func floors(_ texts: [String], from first: Int) -> String {
                texts.enumerated().map { #"{"type":"Badge","id":"b\#(first + $0.offset)","text":"\#($0.element)"}"# }
                    .joined(separator: ",")
            }
            if let next {
                try folder.write("next.json", #"{"floors":[\#(floors(next, from: badges.count))]}"#)
            }
            page = try folder.write(
                "page.json",
                #"{"floors":[{"type":"Title","id":"t","title":"Still here"},\#(floors(badges, from: 0))]\#(next == nil ? "" : #","next":"next.json""#)}"#
            )
        }

        /// "page.json:1:N: floors[i] (floor 'bK')", as a diagnostic about badge floor K starts (the page is one line).
        func floor(_ index: Int, badge: Int) throws -> String {
            let text = try String(contentsOfFile: page, encoding: .utf8)
            let column =
                try #require(text.range(of: #"{"type":"Badge","id":"b\#(badge)""#)).lowerBound.utf16Offset(in: text) + 1
            return "\(page):1:\(column): floors[\(index)] (floor 'b\(badge)')"
        }

        func render(_ extra: [String] = []) throws -> ProcessResult {
            try floorhost(["--plugins", plugins, "--plugin-cache", folder.file("scan-cache.json"), page] + extra)
        }
    }

    @Test(arguments: [
        ("decode", "decoder"), ("expand", "expand selector"), ("height", "height calculator"),
        ("cell", "cell selector"),
    ])
    func aFloorThatCrashesItsPluginIsLeftOutAndTheRestRenders(stage: String, selector: String) throws {
        let setup = try Setup(badges: ["first badge", "crash:\(stage)", "third badge"])
        let result = try setup.render()
        #expect(result.status == 0, "the page still renders: \(result.stderr)")
        #expect(
            result.stdout.contains("Still here") && result.stdout.contains("first badge")
                && result.stdout.contains("third badge"), "\(result.stdout)")
        #expect(!result.stdout.contains("crash:"))
        #expect(
            result.stderr.contains(
                "error: \(try setup.floor(2, badge: 1)): not shown: plugin com.floorkit.test.badge crashed with SIGSEGV in its \(selector) on this floor"
            ),
            "\(result.stderr)")
        #expect(result.stdout.contains("not shown"), "a placeholder takes the floor's place: \(result.stdout)")
    }

    /// A plugin that ends the process itself inside a call (exit, _exit, a signal it raises) fails on that
    /// floor like one that crashes: the floor is left out, the page renders, and its status never leaks out.
    @Test(arguments: [
        ("exit0:height", "ended the process (exit status 0) in its height calculator"),
        ("_exit3:cell", "ended the process (exit status 3) in its cell selector"),
        ("sigterm:decode", "ended the process with SIGTERM in its decoder"),
        ("exit0:expand", "ended the process (exit status 0) in its expand selector"),
    ])
    func aPluginThatEndsTheProcessInACallLosesOnlyItsFloor(text: String, what: String) throws {
        let setup = try Setup(badges: ["first badge", text, "third badge"])
        let result = try setup.render()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("Still here") && result.stdout.contains("first badge")
                && result.stdout.contains("third badge"), "\(result.stdout)")
        #expect(
            result.stderr.contains(
                "error: \(try setup.floor(2, badge: 1)): not shown: plugin com.floorkit.test.badge \(what) on this floor (shown as a placeholder)"
            ),
            "\(result.stderr)")
        let check = try floorhost([
            "check", "--plugins", setup.plugins, "--plugin-cache", setup.folder.file("scan-cache.json"), setup.page,
        ])
        #expect(check.status == 1, "check counts it as a problem: \(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("not shown: plugin com.floorkit.test.badge \(what)"), "\(check.stdout)")
    }

    /// Without isolation no supervisor can leave the floor out, but a plugin's exit, _exit or _Exit still
    /// never ends floorhost with the plugin's status and nothing said: floorhost's own (exported, so the
    /// plugin binds to them) print one line naming the plugin, the selector and the floor, and exit 1.
    @Test(arguments: [
        ("exit0:height", "exit(0)", "height calculator"), ("exit3:cell", "exit(3)", "cell selector"),
        ("_exit3:expand", "_exit(3)", "expand selector"), ("_Exit5:decode", "_Exit(5)", "decoder"),
    ])
    func aPluginThatEndsTheProcessWithoutIsolationIsNamedAndFloorhostExitsOne(
        text: String, call: String, selector: String
    ) throws {
        let setup = try Setup(badges: ["first badge", text, "third badge"])
        let line =
            "error: plugin com.floorkit.test.badge's \(selector) on floor 'b1' (Badge) of \(setup.page) called \(call), which would end floorhost with that status and nothing said; floorhost stops here with status 1"
        for command in [[], ["check"], ["--format", "json"]] {
            let result = try floorhost(
                command + ["--plugins", setup.plugins, "--no-plugin-isolation", setup.page])
            #expect(result.status == 1, "\(command): \(result.stderr)")
            let said = result.stderr.split(separator: "\n").filter { $0.contains(" called \(call)") }
            #expect(said.count == 1 && said.first?.hasPrefix(line) == true, "\(command): \(result.stderr)")
        }
    }

    /// The interposition the test above relies on: floorhost exports exit, _exit and _Exit (a library it
    /// dlopens binds to them), and only floorhost: the test runner links the same layers with libc's.
    @Test func floorhostAloneExportsItsExitFunctions() throws {
        func defined(in binary: String) throws -> Set<String> {
            let listed = try run("/usr/bin/env", ["nm", "-D", "--defined-only", binary])
            #expect(listed.status == 0, "\(listed.stderr)")
            return Set(
                listed.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
        }
        #expect(try defined(in: Repo.floorhostBinary).isSuperset(of: ["exit", "_exit", "_Exit"]))
        let runner = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #expect(try defined(in: runner).isDisjoint(with: ["exit", "_exit", "_Exit"]), "the test runner keeps libc's")
    }

    @Test func jsonOutputCarriesTheCrashAsADiagnostic() throws {
        let setup = try Setup(badges: ["crash:height", "second badge"])
        let result = try setup.render(["--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try jsonObject(result.stdout)
        let diagnostics = try #require(json["diagnostics"] as? [[String: Any]])
        let crash = try #require(
            diagnostics.first {
                ($0["message"] as? String)?.contains("crashed with SIGSEGV in its height calculator") == true
            })
        #expect(crash["level"] as? String == "error")
        #expect(crash["path"] as? String == "floors[1]")
        let rows = try #require(json["rows"] as? [[String: Any]])
        #expect(rows.contains { $0["floor"] as? String == "b1" && $0["type"] as? String == "BadgeRow" })
    }

    @Test func everyCrashingFloorIsLeftOutOneAfterAnother() throws {
        let setup = try Setup(badges: ["crash:height", "kept", "crash:cell", "crash:decode"])
        let result = try setup.render()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Still here") && result.stdout.contains("kept"))
        for (floor, selector) in [("b0", "height calculator"), ("b2", "cell selector"), ("b3", "decoder")] {
            #expect(
                result.stderr.contains(
                    "(floor '\(floor)'): not shown: plugin com.floorkit.test.badge crashed with SIGSEGV in its \(selector)"
                ), "\(result.stderr)")
        }
    }

    @Test func aCrashOnANextPageLeavesOutThatPagesFloor() throws {
        let setup = try Setup(badges: ["on the first page"], next: ["crash:height", "also on the next page"])
        let result = try setup.render(["--format", "json", "--scroll-to", "end"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("crashed with SIGSEGV in its height calculator"))
        #expect(
            result.stdout.contains(setup.folder.file("next.json") + ":1:12: floors[0] (floor 'b1'): not shown"),
            "\(result.stdout)")
        let rows = try #require(try jsonObject(result.stdout)["rows"] as? [[String: Any]])
        #expect(
            rows.contains { $0["floor"] as? String == "b2" && $0["type"] as? String == "BadgeRow" },
            "the next page's other floor is there")
        #expect(rows.contains { $0["floor"] as? String == "b0" && $0["type"] as? String == "BadgeRow" })
    }

    @Test func aFloorThatHangsItsPluginIsLeftOutAfterTheCallTimeout() throws {
        let setup = try Setup(badges: ["first badge", "hang:height", "third badge"])
        let result = try setup.render(["--plugin-call-timeout", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("first badge") && result.stdout.contains("third badge"), "\(result.stdout)")
        #expect(
            result.stderr.contains(
                "error: \(try setup.floor(2, badge: 1)): not shown: plugin com.floorkit.test.badge hung (no answer for 1 s) in its height calculator on this floor"
            ),
            "\(result.stderr)")
    }

    @Test func checkCountsAFloorItsPluginFailsOnAsAProblem() throws {
        let setup = try Setup(badges: ["fine", "crash:height"])
        let result = try floorhost([
            "check", "--plugins", setup.plugins, "--plugin-cache", setup.folder.file("scan-cache.json"), setup.page,
        ])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "error: \(try setup.floor(2, badge: 1)): not shown: plugin com.floorkit.test.badge crashed with SIGSEGV in its height calculator on this floor (shown as a placeholder)"
            ),
            "\(result.stdout)")
        #expect(result.stdout.contains("1 error in 1 page"))
    }

    @Test func withoutIsolationACrashEndsTheProcessAsBefore() throws {
        let setup = try Setup(badges: ["crash:height"])
        let result = try setup.render(["--no-plugin-isolation"])
        #expect(result.status != 0)
        #expect(!result.stdout.contains("Still here"))
    }
}

/// The supervisor's loop, with /bin/sh scripts as the child (it appends `--crash-record-fd 3` and any
/// `--skip-floor` options, which sh sees as $0, $1, ...). A script writes the record as the host lays it
/// out, in place (`1<> /proc/self/fd/3`: the supervisor has the record mapped and watches it while the
/// child runs).
struct PageSupervisorTests {
    private func supervise(_ script: String, callTimeout: Double = 10) -> PageSupervisor.Outcome {
        PageSupervisor.run(program: "/bin/sh", arguments: ["-c", script], callTimeout: callTimeout)
    }

    /// The record of a child in the height calculator (call 6, progress 0) on page 0, floor 2.
    private let inHeightOnFloor2 =
        #"printf '\006\000\000\000\000\000\000\000\000\000\000\000\002\000\000\000' 1<> /proc/self/fd/$1"#

    @Test func aChildsExitStatusIsTheOutcome() {
        #expect(supervise("exit 0") == .exited(0))
        #expect(supervise("exit 2") == .exited(2))
    }

    @Test func anUndocumentedExitStatusOutsidePluginCallsIsAFailure() {
        guard case .failed(let message) = supervise("exit 7") else {
            Issue.record("not a failure")
            return
        }
        #expect(message.contains("exited with status 7 after its last plugin call"))
        #expect(supervise("exit 64") == .exited(64), "a usage error's status is documented")
    }

    @Test func anExitInsideAPluginCallIsRetriedWithThatFloorSkipped() {
        // The second attempt, given --skip-floor 0:2:height:exit-0, exits 0; the first exits 0 mid-call.
        let script = #"if [ "$3" = 0:2:height:exit-0 ]; then exit 0; fi; "# + inHeightOnFloor2 + "; exit 0"
        #expect(supervise(script) == .exited(0))
    }

    @Test func aSignalInsideAPluginCallIsThePluginsFailure() {
        let script = #"if [ "$3" = 0:2:height:15 ]; then exit 0; fi; "# + inHeightOnFloor2 + "; kill -TERM $$"
        #expect(supervise(script) == .exited(0))
    }

    @Test func theCrashRecordIsInMemoryOnly() {
        // The child is handed a descriptor, not a path; the record is no file anyone could find or leave.
        #expect(
            supervise(
                #"[ "$0" = --crash-record-fd ] && [ "$1" = 3 ] && readlink /proc/self/fd/3 | grep -q '^/memfd:floorhost-crash-record'"#
            ) == .exited(0))
    }

    @Test func aChildStoppedFromOutsideIsNotRetried() {
        #expect(supervise("kill -TERM $$") == .exited(128 + SIGTERM))
        #expect(supervise("kill -PIPE $$") == .exited(128 + SIGPIPE))
    }

    @Test func aCrashOutsideAnyPluginCallIsReportedAsAHostBug() {
        guard case .failed(let message) = supervise("kill -SEGV $$") else {
            Issue.record("not a failure")
            return
        }
        #expect(message.contains("crashed with SIGSEGV outside any plugin call; this is a bug in floorhost"))
    }

    @Test func aCrashInAPluginCallIsRetriedWithThatFloorSkipped() {
        // The second attempt, given --skip-floor 0:2:height:11 (as $2, $3), exits 0.
        let script =
            #"if [ "$2" = --skip-floor ] && [ "$3" = 0:2:height:11 ]; then exit 0; fi; "#
            + inHeightOnFloor2 + "; kill -SEGV $$"
        #expect(supervise(script) == .exited(0))
    }

    @Test func aCallWithoutProgressIsKilledAndItsFloorSkipped() {
        // The first attempt stays in the height calculator; the second, told to skip 0:2 as hung, exits 0.
        let script = #"if [ "$3" = 0:2:height:hung-0.5 ]; then exit 0; fi; "# + inHeightOnFloor2 + "; exec sleep 30"
        #expect(supervise(script, callTimeout: 0.5) == .exited(0))
    }

    /// A child that notes its status in the record (CrashRecord.markFinished, at `finished`'s offset) and lets go of
    /// its stderr has ended for its supervisor, which returns that status while the child is still there (the
    /// kernel freeing a large render's memory); one that lets go of its stderr without noting it is waited for.
    @Test func aChildThatSaysItIsFinishedIsNotWaitedFor() throws {
        let folder = try TemporaryFolder("finished")
        let pidFile = folder.file("pid")
        let offset = try #require(MemoryLayout<CrashRecord.Fields>.offset(of: \.finished))
        let finished =
            #"echo $$ > "# + pidFile + #"; printf '\003\000\000\000' | dd of=/proc/self/fd/$1 bs=1 seek="#
            + "\(offset)" + #" conv=notrunc 2>/dev/null; exec 2>&- 1>&-; exec sleep 60"#
        #expect(supervise(finished) == .exited(2))
        func pidWritten() throws -> pid_t {
            let text = try String(contentsOfFile: pidFile, encoding: .utf8)
            return try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        let pid = try pidWritten()
        #expect(kill(pid, 0) == 0, "still there: not waited for")
        kill(pid, SIGKILL)
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)

        let notSaid = #"echo $$ > "# + pidFile + #"; exec 2>&-; exit 2"#
        #expect(supervise(notSaid) == .exited(2))
        let waited = try pidWritten()
        #expect(kill(waited, 0) != 0, "waited for and reaped")
    }

    @Test func aChildOutsidePluginCallsIsNeverCountedAsHung() {
        #expect(supervise("sleep 1; exit 2", callTimeout: 0.3) == .exited(2))
    }

    @Test func aCrashAgainOnASkippedFloorStopsTheRetries() {
        let script = inHeightOnFloor2 + "; kill -SEGV $$"
        guard case .failed(let message) = supervise(script) else {
            Issue.record("not a failure")
            return
        }
        #expect(message.contains("on a floor it had already skipped"))
    }
}
