import FloorRuntime
import FloorSession
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A plugin runs with the user's rights, so where it comes from is a trust decision (issue 9, "Plugin
/// trust"): libraries others can change are refused, plugins.lock pins libraries by SHA-256, and the scan
/// cache tells a rewritten library from the one it scanned even when its size and time were kept.
/// Tests run as root: fixtures are copies, changed with chmod and chown (to uid 65534).
struct PluginTrustTests {
    let folder: TemporaryFolder
    let plugins: String
    let page: String

    init() throws {
        folder = try TemporaryFolder("trust")
        plugins = try folder.installShippedPlugins(["Title"])
        page = try folder.write("page.json", #"{"floors":[{"type":"Title","id":"t","title":"TRUSTED-TITLE"}]}"#)
    }

    private var title: String { plugins + "/libTitleFloor.so" }

    private func errors(_ host: FloorHost) -> [String] {
        host.loadDiagnostics.filter { $0.level == .error }.map(\.message)
    }

    // MARK: Who can change a plugin

    @Test func aLibraryWritableByGroupOrOthersIsRefusedWithTheFix() throws {
        for mode: mode_t in [0o775, 0o757, 0o666] {
            #expect(chmod(title, mode) == 0)
            let host = try FloorHost(pluginFolder: plugins)
            #expect(
                errors(host) == [
                    "\(title): refused: \(title) is writable by group or others (mode 0\(String(mode, radix: 8))); a plugin runs with your rights, so only you or root may be able to change it: chmod go-w \(title) (or pass --allow-insecure-plugins)"
                ])
            #expect(!host.registry.floorTypeNames.contains("Title"))
        }
        #expect(chmod(title, 0o755) == 0)
        let fixed = try FloorHost(pluginFolder: plugins)
        #expect(errors(fixed).isEmpty)
        #expect(fixed.registry.floorTypeNames.contains("Title"))
    }

    @Test func aFolderOnTheWayThatOthersCanWriteIsRefused() throws {
        let vendor = plugins + "/vendor"
        try FileManager.default.createDirectory(atPath: vendor, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: title, toPath: vendor + "/libTitleFloor.so")
        #expect(chmod(vendor, 0o777) == 0)
        let host = try FloorHost(pluginFolder: plugins)
        #expect(
            errors(host).first?.contains("refused: its folder \(vendor) is writable by group or others (mode 0777)")
                == true, "\(errors(host))")
        #expect(errors(host).first?.contains("chmod go-w \(vendor)") == true)
        #expect(chmod(vendor, 0o755) == 0)
        #expect(chmod(plugins, 0o770) == 0)
        let top = try FloorHost(pluginFolder: plugins)
        #expect(
            errors(top).first?.contains("refused: its folder \(plugins) is writable by group or others (mode 0770)")
                == true, "\(errors(top))")
    }

    @Test func aLibraryOwnedBySomeoneElseIsRefused() throws {
        #expect(chown(title, 65534, 65534) == 0, "tests run as root")
        let host = try FloorHost(pluginFolder: plugins)
        let message = try #require(errors(host).first)
        #expect(message.hasPrefix("\(title): refused: \(title) is owned by "), "\(message)")
        #expect(message.contains("(uid 65534), not by you (") && message.contains("chown 0 \(title)"), "\(message)")
        #expect(!host.registry.floorTypeNames.contains("Title"))
    }

    @Test func aRefusedLibraryIsNotEvenScanned() throws {
        // It aborts in init: had it been opened (even by the scanning child), the line would say so.
        try compileCPlugin(
            to: plugins + "/libAborts.so",
            defines: [
                "ABORT_IN_INIT", "PLUGIN_ID=\"com.floorkit.test.aborts\"",
                "FLOOR_TYPE=\"Aborts\"", "ROW_TYPE=\"AbortsRow\"",
            ])
        #expect(chmod(plugins + "/libAborts.so", 0o777) == 0)
        let result = try floorhost(["--plugins", plugins, "--plugin-cache", folder.file("cache.json"), page])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "error: \(plugins)/libAborts.so: refused: \(plugins)/libAborts.so is writable by group or others (mode 0777)"
            ), "\(result.stderr)")
        #expect(!result.stderr.contains("SIGABRT"))
        #expect(
            !((try? String(contentsOfFile: folder.file("cache.json"), encoding: .utf8)) ?? "").contains("libAborts"))
        #expect(result.stdout.contains("TRUSTED-TITLE"))
    }

    @Test func allowInsecurePluginsLoadsThemAndSaysSoEveryRun() throws {
        let quiet = try floorhost(["--plugins", plugins, page, "--allow-insecure-plugins"])
        #expect(quiet.status == 0)
        #expect(
            quiet.stderr.contains(
                "warning: --allow-insecure-plugins: plugin libraries that others can change are loaded anyway"),
            "\(quiet.stderr)")
        #expect(chmod(title, 0o666) == 0)
        let refused = try floorhost(["--plugins", plugins, page])
        #expect(refused.stderr.contains("refused: \(title) is writable by group or others"))
        #expect(!refused.stdout.contains("TRUSTED-TITLE"))
        let allowed = try floorhost(["--plugins", plugins, page, "--allow-insecure-plugins"])
        #expect(allowed.status == 0)
        #expect(allowed.stdout.contains("TRUSTED-TITLE"))
        #expect(
            allowed.stderr.contains(
                "warning: \(title): loaded although \(title) is writable by group or others (mode 0666)"),
            "\(allowed.stderr)")
    }

    // MARK: plugins.lock

    @Test func lockPinsEveryLibraryByItsSHA256() throws {
        try FileManager.default.createDirectory(atPath: plugins + "/vendor", withIntermediateDirectories: true)
        try compileCPlugin(to: plugins + "/vendor/libBadge.so")
        let result = try floorhost(["lock", "--plugins", plugins])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("wrote \(plugins)/plugins.lock: 2 libraries\n"), "\(result.stdout)")
        let data = try #require(FileManager.default.contents(atPath: plugins + "/plugins.lock"))
        let lock = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let libraries = try #require(lock["libraries"] as? [[String: String]])
        #expect(libraries.map { $0["file"] } == ["libTitleFloor.so", "vendor/libBadge.so"])
        #expect(libraries.map { $0["id"] } == ["com.floorkit.floor.title", "com.floorkit.test.badge"])
        #expect(libraries.map { $0["version"] } == ["1.0.0", "0.1.0"])
        // The hash is the file's SHA-256 as any other tool computes it.
        for entry in libraries {
            let sum = try run("/usr/bin/env", ["sha256sum", plugins + "/" + entry["file"]!])
            #expect(sum.stdout.hasPrefix(entry["sha256"]! + " "), "\(entry)")
        }
        let host = try FloorHost(pluginFolder: plugins)
        #expect(errors(host).isEmpty, "\(errors(host))")
        #expect(Set(host.registry.floorTypeNames).isSuperset(of: ["Title", "Badge"]))
    }

    /// The digest (the system's libcrypto) of no bytes, of "abc" (FIPS 180-2's vectors) and of a file over
    /// two read chunks; a file that cannot be read has none.
    @Test func theLibraryDigestIsTheSHA256OfTheFilesBytes() throws {
        let empty = try folder.write("empty.bin", "")
        #expect(
            LibraryDigest.sha256(ofFile: empty) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let abc = try folder.write("abc.bin", "abc")
        #expect(
            LibraryDigest.sha256(ofFile: abc) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let big = try folder.write("big.bin", String(repeating: "floor", count: 500_000))
        let sum = try run("/usr/bin/env", ["sha256sum", big])
        #expect(sum.stdout.hasPrefix(try #require(LibraryDigest.sha256(ofFile: big)) + " "))
        #expect(LibraryDigest.sha256(ofFile: folder.file("missing.bin")) == nil)
    }

    @Test func aLibraryNotInTheLockOrChangedSinceIsRefused() throws {
        #expect(try floorhost(["lock", "--plugins", plugins]).status == 0)
        try compileCPlugin(to: plugins + "/libBadge.so")
        // Rewrite the locked library with other bytes (another build of a C plugin under its name).
        try FileManager.default.removeItem(atPath: title)
        try compileCPlugin(
            to: title,
            defines: ["PLUGIN_ID=\"com.floorkit.test.impostor\"", "FLOOR_TYPE=\"Title\"", "ROW_TYPE=\"TitleBar\""])
        let host = try FloorHost(pluginFolder: plugins)
        let lockFile = plugins + "/plugins.lock"
        #expect(
            errors(host).contains(
                "\(plugins)/libBadge.so: refused: not in \(lockFile), which pins every library this folder may load; review it, then run `floorhost lock --plugins \(plugins)` again"
            ),
            "\(errors(host))")
        let changed = try #require(errors(host).first { $0.hasPrefix("\(title): refused: its SHA-256 is ") })
        #expect(
            changed.contains("as \(lockFile) pins for ") && changed.contains("the file changed since it was locked"),
            "\(changed)")
        #expect(host.registry.floorTypeNames.isEmpty, "\(host.registry.floorTypeNames)")
        let check = try floorhost(["check", "--plugins", plugins, page])
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        // Locked again after review: both load.
        #expect(try floorhost(["lock", "--plugins", plugins]).status == 0)
        #expect(errors(try FloorHost(pluginFolder: plugins)).isEmpty)
    }

    @Test func lockedRequiresALockFileAndABadLockFileFailsClosed() throws {
        let missing = try floorhost(["--plugins", plugins, page, "--locked"])
        #expect(missing.status == 1)
        #expect(
            missing.stderr.contains("error: \(plugins)/plugins.lock: no plugin lock file, and --locked requires one"),
            "\(missing.stderr)")
        try folder.write("plugins/plugins.lock", "not json")
        let broken = try floorhost(["--plugins", plugins, page])
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("\(plugins)/plugins.lock: cannot read the plugin lock file"), "\(broken.stderr)")
        #expect(try floorhost(["lock", "--plugins", plugins]).status == 0)
        #expect(chmod(plugins + "/plugins.lock", 0o666) == 0)
        let writable = try floorhost(["--plugins", plugins, page, "--locked"])
        #expect(writable.status == 1)
        #expect(
            writable.stderr.contains("plugins.lock: refused: \(plugins)/plugins.lock is writable by group or others"),
            "\(writable.stderr)")
        #expect(chmod(plugins + "/plugins.lock", 0o644) == 0)
        let locked = try floorhost(["--plugins", plugins, page, "--locked"])
        #expect(locked.status == 0, "\(locked.stderr)")
        #expect(locked.stdout.contains("TRUSTED-TITLE"))
    }

    @Test func lockWithoutAPluginFolderWritesNothingAndExits1() throws {
        let missing = folder.file("no-plugins")
        let result = try floorhost(["lock", "--plugins", missing])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: \(missing): no such plugin folder"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    // MARK: The scan cache keys by content

    /// Replaces `path` with `bytes` and gives it back its modification time.
    private func rewriteKeepingTime(_ path: String, with bytes: Data) throws {
        var before = stat()
        #expect(stat(path, &before) == 0)
        try bytes.write(to: URL(fileURLWithPath: path))
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        var after = stat()
        #expect(stat(path, &after) == 0)
        #expect(
            after.st_size == before.st_size && after.st_mtim.tv_sec == before.st_mtim.tv_sec
                && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
    }

    @Test func theCacheIsNotFooledByKeptSizeAndTime() throws {
        let library = try folder.write("lib.so", String(repeating: "a", count: 4096))
        let cache = PluginScanCache(file: nil)
        cache.record(.crashed, reason: "crashed with SIGABRT in init", for: library)
        #expect(cache.entry(for: library)?.verdict == .crashed)
        try rewriteKeepingTime(library, with: Data(String(repeating: "b", count: 4096).utf8))
        #expect(cache.entry(for: library) == nil, "same size and time, other bytes: scanned again")
    }

    @Test func aLibraryRewrittenWithItsSizeAndTimeKeptIsScannedAgain() throws {
        let mood = plugins + "/libMood.so"
        let quiet = folder.file("libMood-quiet.so")
        try compileCPlugin("mood.c", to: mood, defines: ["MOOD=\"abort\""])
        try compileCPlugin("mood.c", to: quiet, defines: ["MOOD=\"quiet\""])
        let moodPage = try folder.write("mood.json", #"{"floors":[{"type":"Mood","id":"m"}]}"#)
        let cache = folder.file("cache.json")
        let first = try floorhost(["--plugins", plugins, "--plugin-cache", cache, moodPage])
        #expect(
            first.stderr.contains("\(mood): skipped: scanned in a child process, it crashed with SIGABRT"),
            "\(first.stderr)")
        let fixed = try #require(FileManager.default.contents(atPath: quiet))
        #expect(
            fixed.count == (try FileManager.default.attributesOfItem(atPath: mood)[.size] as? Int),
            "the two builds have one size")
        try rewriteKeepingTime(mood, with: fixed)
        let second = try floorhost(["--plugins", plugins, "--plugin-cache", cache, moodPage])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(!second.stderr.contains("skipped"), "\(second.stderr)")
        #expect(second.stdout.contains("MOOD-OK"), "\(second.stdout)")
    }
}
