import FloorSession
import Foundation
import Testing

/// A plugin runs inside floorhost's process (or its render child), so it can disturb state the host relies
/// on: the working directory, descriptors 1 and 2, stdout itself. And floorhost can be killed while a
/// plugin hangs. None of it may lose the page, mislead the output, orphan a child or leave a file behind.
struct ProcessStateTests {
    /// A Title floor and two Badge floors (the second on a next page), with a Badge plugin built with `define`.
    struct Setup {
        let folder: TemporaryFolder
        let plugins: String
        let pages: String

        init(_ defines: [String], badge: String = "badge text") throws {
            folder = try TemporaryFolder("process-state")
            plugins = try folder.installShippedPlugins(["Title"])
            try compileCPlugin(to: plugins + "/libBadge.so", defines: defines)
            pages = folder.file("pages")
            try folder.write(
                "pages/page.json",
                #"{"floors":[{"type":"Title","id":"t","title":"Still here"},{"type":"Badge","id":"b1","text":"\#(badge)"}],"next":"next.json"}"#
            )
            try folder.write("pages/next.json", #"{"floors":[{"type":"Badge","id":"b2","text":"next badge"}]}"#)
        }

        /// floorhost run in the pages folder on `page.json` (a relative path), scrolled to the end.
        func render(_ extra: [String] = [], environment: [String: String] = [:]) throws -> ProcessResult {
            try run(
                Repo.floorhostBinary,
                [
                    "--plugins", plugins, "--plugin-cache", folder.file("scan-cache.json"), "page.json",
                    "--scroll-to", "end",
                ] + extra,
                in: pages, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        }
    }

    static let isolation = [[], ["--no-plugin-isolation"]]

    @Test(arguments: isolation)
    func aPluginThatChangesTheWorkingDirectoryInInitIsPutBackAndNamed(mode: [String]) throws {
        let setup = try Setup(["CHDIR_IN_INIT"])
        let result = try setup.render(mode)
        #expect(result.status == 0, "the relative page and its next page are still found: \(result.stderr)")
        #expect(
            result.stdout.contains("Still here") && result.stdout.contains("badge text")
                && result.stdout.contains("next badge"), "\(result.stdout)")
        #expect(
            result.stderr.contains(
                "libBadge.so: com.floorkit.test.badge: init changed the working directory (chdir); floorhost changed it back to"
            ),
            "\(result.stderr)")
        #expect(!result.stderr.contains("no such page file"))
    }

    @Test(arguments: isolation)
    func aPluginThatClosesDescriptorsOneAndTwoDoesNotSilenceTheHost(mode: [String]) throws {
        let setup = try Setup(["CLOSE_OUTPUT_IN_INIT"])
        let result = try setup.render(["--format", "json"] + mode)
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try #require(try jsonObject(result.stdout)["rows"] as? [[String: Any]])
        #expect(
            Set(rows.compactMap { $0["floor"] as? String }) == ["t", "b1", "b2", "floorhost.footer"],
            "the page names a next page")
    }

    @Test(arguments: isolation)
    func whatAPluginPrintsNeverReachesTheOutput(mode: [String]) throws {
        let setup = try Setup(["PRINTS_IN_CELL"])
        let result = try setup.render(["--format", "json"] + mode)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("a plugin's own line"), "stdout is the page's json alone")
        #expect(result.stderr.contains("a plugin's own line on stdout"), "the plugin's line goes to stderr")
        _ = try jsonObject(result.stdout)
    }

    @Test(arguments: isolation)
    func anOutputThatCannotBeWrittenIsSaidAndExitsOne(mode: [String]) throws {
        let setup = try Setup([])
        // /dev/full takes no byte: ENOSPC on the first write.
        let full = try run(
            "/bin/sh",
            [
                "-c", "exec \"$0\" \"$@\" > /dev/full", Repo.floorhostBinary, "--plugins", setup.plugins,
                "--plugin-cache", setup.folder.file("scan-cache.json"), setup.pages + "/page.json",
            ] + mode)
        #expect(full.status == 1)
        #expect(full.stderr.contains("error: cannot write the output: No space left on device"), "\(full.stderr)")
        let closed = try run(
            "/bin/sh",
            [
                "-c", "exec \"$0\" \"$@\" >&-", Repo.floorhostBinary, "--plugins", setup.plugins,
                "--plugin-cache", setup.folder.file("scan-cache.json"), setup.pages + "/page.json",
            ] + mode)
        #expect(closed.status == 1)
        #expect(closed.stderr.contains("error: cannot write the output: Bad file descriptor"), "\(closed.stderr)")
    }

    @Test func aRelativePluginCacheIsWrittenWhereItWasNamed() throws {
        let setup = try Setup([])
        let result = try run(
            Repo.floorhostBinary, ["--plugins", setup.plugins, "--plugin-cache", "cache.json", "page.json"],
            in: setup.pages)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("cannot write the plugin scan cache"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: setup.pages + "/cache.json"))
    }

    /// SIGTERM (or SIGKILL) to a supervising floorhost while its child hangs in a plugin: the child dies
    /// with it, and nothing is left in TMPDIR.
    @Test(arguments: [SIGTERM, SIGKILL])
    func killingFloorhostWhileAPluginHangsLeavesNoChildAndNoFile(signal: Int32) throws {
        let setup = try Setup(["CRASHES_ON_DATA"], badge: "hang:height")
        let tmp = try TemporaryFolder("process-state-tmp")
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = tmp.path
        let parent = try spawnWithDefaultSignals(
            [
                Repo.floorhostBinary, "--plugins", setup.plugins, "--plugin-cache",
                setup.folder.file("scan-cache.json"),
                setup.pages + "/page.json",
            ], environment: environment)
        // The render child exists once the parent has started it; it then hangs in the height calculator.
        let child = try #require(eventually(seconds: 20) { children(of: parent).first }, "the render child started")
        kill(parent, signal)
        var status: Int32 = 0
        while waitpid(parent, &status, 0) < 0 && errno == EINTR {}
        #expect(status & 0x7f == signal, "floorhost ended by the signal (wait status \(status))")
        let gone = eventually(seconds: 10) { processExists(child) ? nil : true }
        #expect(gone == true, "the render child \(child) died with its parent")
        if gone == nil { kill(child, SIGKILL) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.path).isEmpty)
    }
}

/// Starts `arguments` as a shell would (no signal blocked: Foundation's Process passes on the test
/// runner's blocked signals, and a blocked SIGTERM would never arrive), output to /dev/null.
private func spawnWithDefaultSignals(_ arguments: [String], environment: [String: String]) throws -> pid_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    var all = sigset_t()
    sigemptyset(&empty)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    let failed = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
    if failed != 0 { throw POSIXError(POSIXErrorCode(rawValue: failed) ?? .EINVAL) }
    return pid
}

/// The ids of `parent`'s children (Linux: /proc/PID/task/*/children).
private func children(of parent: pid_t) -> [pid_t] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(parent)/task")) ?? []
    return tasks.flatMap { task in
        ((try? String(contentsOfFile: "/proc/\(parent)/task/\(task)/children", encoding: .utf8)) ?? "")
            .split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}

/// Whether `pid` is a live process (a zombie counts as gone: it runs no code).
private func processExists(_ pid: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return false }
    return stat[stat.index(close, offsetBy: 2)] != "Z"
}
