import FloorCore
import FloorRuntime
import FloorSession
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Pages are read only from the page root (issue 9, item 5): a `next` that resolves outside it, or names
/// something that is not a regular file, or is too large, is refused, and never a byte of it is shown.
/// Fixtures: a temporary folder `site/` (the root) beside `outside/`, a secret file, symlinks, a FIFO, a
/// character device (tests run as root), /proc and /dev.
struct PageRootTests {
    let folder: TemporaryFolder
    let plugins: String
    let site: String
    /// A valid page outside the root, and a secret whose first character an error must never quote.
    let outsidePage: String
    let secret: String

    init() throws {
        folder = try TemporaryFolder("pageroot")
        plugins = try folder.installShippedPlugins(["Title"])
        site = folder.file("site")
        outsidePage = try folder.write(
            "outside/page.json", #"{"floors":[{"type":"Title","id":"stolen","title":"OUTSIDE-TITLE"}]}"#)
        secret = try folder.write("outside/secret.txt", "Xsecret-content-9f3e\n")
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
    }

    /// Writes site/home.json, a one-floor page whose `next` is `next`.
    @discardableResult
    private func home(next: String) throws -> String {
        let escaped = next.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return try folder.write(
            "site/home.json", #"{"floors":[{"type":"Title","id":"t","title":"Home"}],"next":"\#(escaped)"}"#)
    }

    /// Renders site/home.json to the end (json) within a deadline; returns the loadMore failure reason.
    private func failedLoad(next: String, extra: [String] = []) throws -> (reason: String, output: String) {
        let page = try home(next: next)
        let result = try floorhostWithin(
            seconds: 60, ["--plugins", plugins, page, "--format", "json", "--scroll-to", "end"] + extra)
        #expect(result.status == 0, "\(next): \(result.stderr)")
        let json = try jsonObject(result.stdout)
        let events = try #require(json["events"] as? [[String: Any]])
        let failure = try #require(
            events.first { $0["kind"] as? String == "loadMore" && $0["phase"] as? String == "failed" },
            "\(next): no failed load in \(result.stdout)")
        return (try #require(failure["reason"] as? String), result.stdout)
    }

    private func expectRefused(next: String, because why: String, extra: [String] = []) throws {
        let (reason, output) = try failedLoad(next: next, extra: extra)
        #expect(reason.hasPrefix("\(site)/home.json: next: '\(next)' \(why)"), "\(next): \(reason)")
        for leak in ["OUTSIDE-TITLE", "secret-content", "found", "root:"] {
            #expect(!output.contains(leak), "\(next): the output shows '\(leak)': \(output)")
        }
    }

    @Test func aNextPageOutsideTheRootIsRefusedEvenWhenItIsAValidPage() throws {
        try expectRefused(next: "../outside/page.json", because: "resolves outside the page root \(site)")
        try expectRefused(next: outsidePage, because: "resolves outside the page root")
        try expectRefused(next: "../../../../../../../../etc/passwd", because: "resolves outside the page root")
        try expectRefused(next: "/etc/passwd", because: "resolves outside the page root")
        try expectRefused(next: "/proc/self/environ", because: "resolves outside the page root")
        try expectRefused(next: "/dev/zero", because: "resolves outside the page root")
    }

    @Test func aSymlinkOutOfTheRootIsRefused() throws {
        try FileManager.default.createSymbolicLink(atPath: site + "/link.json", withDestinationPath: outsidePage)
        try FileManager.default.createSymbolicLink(atPath: site + "/secret.json", withDestinationPath: secret)
        try FileManager.default.createSymbolicLink(
            atPath: site + "/shared", withDestinationPath: folder.file("outside"))
        try expectRefused(next: "link.json", because: "resolves outside the page root")
        try expectRefused(next: "secret.json", because: "resolves outside the page root")
        try expectRefused(next: "shared/page.json", because: "resolves outside the page root")
    }

    @Test func aSymlinkThatStaysInsideTheRootIsFollowed() throws {
        try folder.write("site/pages/two.json", #"{"floors":[{"type":"Title","id":"two","title":"SECOND-PAGE"}]}"#)
        try FileManager.default.createSymbolicLink(
            atPath: site + "/two.json", withDestinationPath: site + "/pages/two.json")
        let page = try home(next: "two.json")
        let result = try floorhost(["--plugins", plugins, page, "--scroll-to", "end"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("SECOND-PAGE"), "\(result.stdout)")
    }

    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        #expect(mkfifo(site + "/pipe.json", 0o644) == 0)
        try expectRefused(next: "pipe.json", because: "is a FIFO, not a regular file")
        // As the first page, too: exit 2, the message starts with the file name.
        let first = try floorhostWithin(seconds: 60, ["--plugins", plugins, site + "/pipe.json"])
        #expect(first.status == 2)
        #expect(first.stderr.hasPrefix("error: \(site)/pipe.json: is a FIFO, not a regular file"), "\(first.stderr)")
    }

    @Test func aDeviceOrAFolderInsideTheRootIsRefused() throws {
        // /dev/zero's numbers (1, 5): reading it never ends.
        #expect(
            try run("/usr/bin/env", ["mknod", site + "/zero.json", "c", "1", "5"]).status == 0, "tests run as root")
        try expectRefused(next: "zero.json", because: "is a character device, not a regular file")
        try FileManager.default.createDirectory(atPath: site + "/folder.json", withIntermediateDirectories: false)
        try expectRefused(next: "folder.json", because: "is a folder, not a regular file")
    }

    @Test func aKernelFileIsRefusedEvenInsideANamedRoot() throws {
        let root = try PageRoot(folder: "/proc/self")
        #expect(throws: PageRoot.Refusal.notRegular(kind: "a kernel file (/proc, /sys)")) {
            try root.read("/proc/self/environ")
        }
        let first = try floorhost(["--plugins", plugins, "/proc/self/environ"])
        #expect(first.status == 2)
        #expect(
            first.stderr.hasPrefix("error: /proc/self/environ: is a kernel file (/proc, /sys), not a regular file"),
            "\(first.stderr)")
        #expect(!first.stderr.contains("PATH="))
    }

    @Test func aPageLargerThanTheLimitIsRefused() throws {
        let big = #"{"floors":[{"type":"Title","id":"big","title":""# + String(repeating: "x", count: 5000) + #""}]}"#
        try folder.write("site/big.json", big)
        try expectRefused(
            next: "big.json", because: "is larger than 4096 bytes (--max-page-bytes)",
            extra: ["--max-page-bytes", "4096"])
        // The same page under the default limit loads.
        let result = try floorhost([
            "--plugins", plugins, try home(next: "big.json"), "--format", "json", "--scroll-to", "end",
        ])
        #expect(result.stdout.contains(#""phase":"completed""#), "\(result.stdout)")
        let first = try floorhost(["--plugins", plugins, site + "/big.json", "--max-page-bytes", "4096"])
        #expect(first.status == 2)
        #expect(
            first.stderr == "error: \(site)/big.json: is larger than 4096 bytes (--max-page-bytes)\n", "\(first.stderr)"
        )
    }

    @Test func theLimitIsExact() throws {
        let file = try folder.write("site/hundred.json", String(repeating: " ", count: 100))
        #expect(throws: PageRoot.Refusal.tooLarge(limit: 99)) {
            try PageRoot(around: file, maxPageBytes: 99).read(file)
        }
        #expect(try PageRoot(around: file, maxPageBytes: 100).read(file).count == 100)
    }

    /// A page over two huge pages (read into memory advised for them, HugePages) reads back byte for byte,
    /// whatever its size's remainder; the bytes past it are not part of it.
    @Test func aPageOverHugePagesReadsBackWhole() throws {
        for size in [HugePages.extent * 2, HugePages.extent * 2 + 4097, HugePages.extent * 3 - 1] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
            let file = folder.file("site/huge-\(size).json")
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            let read = try PageRoot(around: file, maxPageBytes: size).read(file)
            #expect(read.count == size)
            #expect(read == bytes, "size \(size)")
        }
    }

    @Test func pageRootNamesAnotherFolder() throws {
        try folder.write("site/shared/more.json", #"{"floors":[{"type":"Title","id":"more","title":"MORE-PAGE"}]}"#)
        let page = try folder.write(
            "site/pages/home.json",
            #"{"floors":[{"type":"Title","id":"t","title":"Home"}],"next":"../shared/more.json"}"#)
        // By default the root is site/pages, so ../shared is outside.
        let confined = try floorhost(["--plugins", plugins, page, "--scroll-to", "end", "--format", "json"])
        #expect(
            confined.stdout.contains(
                "\(page): next: '../shared/more.json' resolves outside the page root \(site)/pages"),
            "\(confined.stdout)")
        let widened = try floorhost(["--plugins", plugins, page, "--scroll-to", "end", "--page-root", site])
        #expect(widened.status == 0, "\(widened.stderr)")
        #expect(widened.stdout.contains("MORE-PAGE"))
        // A first page outside a named root is refused too, and a root that is not a folder is unusable.
        let outside = try floorhost(["--plugins", plugins, outsidePage, "--page-root", site])
        #expect(outside.status == 2)
        #expect(
            outside.stderr.hasPrefix("error: \(outsidePage): resolves outside the page root \(site)"),
            "\(outside.stderr)")
        #expect(!outside.stdout.contains("OUTSIDE-TITLE"))
        let noRoot = try floorhost(["--plugins", plugins, page, "--page-root", folder.file("nope")])
        #expect(noRoot.status == 2)
        #expect(noRoot.stderr.hasPrefix("error: \(folder.file("nope")): no such page root folder"), "\(noRoot.stderr)")
    }

    @Test func checkNamesThePageAndTheFieldThatPointedOutside() throws {
        let page = try home(next: "../outside/secret.txt")
        let result = try floorhost(["check", "--plugins", plugins, page])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "error: \(page): next: '../outside/secret.txt' resolves outside the page root \(site)"),
            "\(result.stdout)")
        #expect(!result.stdout.contains("secret-content") && !result.stdout.contains("'X'"))
        let ok = try floorhost([
            "check", "--plugins", plugins, try home(next: "../outside/page.json"), "--page-root", folder.path,
        ])
        #expect(ok.status == 0, "\(ok.stdout)\(ok.stderr)")
    }

    @Test func aSymlinkSwappedInAfterResolvingIsNotFollowed() throws {
        let root = try PageRoot(folder: site)
        let resolvedPage = try folder.write("site/dir/page.json", #"{"floors":[]}"#)
        #expect(try root.read(resolved: resolvedPage).count == 13)
        // The page itself becomes a symlink out, after realpath said it was inside: O_NOFOLLOW refuses it.
        try FileManager.default.removeItem(atPath: resolvedPage)
        try FileManager.default.createSymbolicLink(atPath: resolvedPage, withDestinationPath: outsidePage)
        #expect(throws: PageRoot.Refusal.changed) { try root.read(resolved: resolvedPage) }
        // A folder on the way becomes a symlink out: the open descriptor's own path is outside.
        try FileManager.default.removeItem(atPath: site + "/dir")
        try FileManager.default.createSymbolicLink(atPath: site + "/dir", withDestinationPath: folder.file("outside"))
        #expect(throws: PageRoot.Refusal.changed) { try root.read(resolved: resolvedPage) }
        #expect(throws: PageRoot.Refusal.outside(root: site)) { try root.read(resolvedPage) }
    }

    @Test func theRootIsAFolderNotAPrefix() throws {
        let root = try PageRoot(folder: site)
        #expect(root.contains(site + "/a.json"))
        #expect(!root.contains(site + "x/a.json"), "a sibling whose name starts like the root is outside")
        #expect(!root.contains(folder.path + "/outside/page.json"))
        #expect(throws: PageRoot.Refusal.missing) { try root.read(site + "/nope.json") }
    }
}

/// Runs floorhost, killing it if it has not finished within `seconds` (a page read that blocks must fail
/// the test, not hang it).
func floorhostWithin(seconds: Double, _ arguments: [String]) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Repo.floorhostBinary)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["FLOORKIT_PLUGIN_CACHE"] = NSTemporaryDirectory() + "floorkit-tests-plugin-scan.json"
    process.environment = environment
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("out-\(UUID().uuidString)")
    let err = FileManager.default.temporaryDirectory.appendingPathComponent("err-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    defer {
        try? FileManager.default.removeItem(at: out)
        try? FileManager.default.removeItem(at: err)
    }
    let outHandle = try FileHandle(forWritingTo: out)
    let errHandle = try FileHandle(forWritingTo: err)
    process.standardOutput = outHandle
    process.standardError = errHandle
    let ended = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in ended.signal() }
    try process.run()
    if ended.wait(timeout: .now() + seconds) == .timedOut {
        kill(-process.processIdentifier, SIGKILL)
        process.terminate()
        kill(process.processIdentifier, SIGKILL)
        ended.wait()
        Issue.record("floorhost \(arguments) did not finish within \(seconds) s")
    }
    try outHandle.close()
    try errHandle.close()
    return ProcessResult(
        status: process.terminationStatus,
        stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
}
