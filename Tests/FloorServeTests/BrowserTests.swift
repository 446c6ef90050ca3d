import FloorServe
import Foundation
import Testing

@testable import FloorServe

extension BrowserRuns {
    /// The real-browser test: the built `floorhost serve` (its worker included) on a loopback port, driven by
    /// Tests/Browser/serve_in_browser.py through headless chromium. Runs where Scripts/setup --browser has
    /// installed chromium, chromium-driver and selenium; the screenshot is left in the build folder as
    /// serve-browser-test.png. Scripts/test (CI) sets FLOORKIT_REQUIRE_BROWSER=1: there a missing browser is a
    /// failure, never a skipped test counted as passing.
    @Suite struct BrowserTests {
        @Test func scrollStickyTapAndLiveEditInChromium() async throws {
            try #require(browserAvailable, "chromium, chromedriver or selenium is missing: run Scripts/setup --browser")
            let fixture = try ServeFixture()
            // The rows the whole feed has once every next page is in, as the CLI lays them out.
            let cli = try await offThePool {
                try runFloorhost([
                    "--no-plugin-isolation", "--plugins", fixture.plugins, fixture.pages + "/home.json",
                    "--format", "json", "--scroll-to", "end",
                ])
            }
            let layout = try #require(try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [String: Any])
            let rows = try #require(layout["rows"] as? [[String: Any]])
            let expected = rows.map { [$0["section"]!, $0["row"]!, $0["floor"]!] }
            let expectFile = fixture.folder + "/expected-rows.json"
            try JSONSerialization.data(withJSONObject: expected).write(to: URL(fileURLWithPath: expectFile))

            let server = try await offThePool {
                try RunningServer(arguments: [
                    "serve", "--plugins", fixture.plugins, "--plugin-cache", fixture.folder + "/scan.json",
                    "--port", "0", fixture.pages,
                ])
            }
            defer { server.stop() }
            let screenshot = ServeRepo.buildDirectory + "/serve-browser-test.png"
            let result = try await offThePool {
                try runTool(
                    "/usr/bin/env",
                    [
                        "python3", ServeRepo.root + "/Tests/Browser/serve_in_browser.py",
                        "--url", server.url + "page/home.json", "--file", fixture.pages + "/home.json",
                        "--expect", expectFile, "--next-pages", "2", "--screenshot", screenshot,
                    ])
            }
            print(result.output)
            #expect(result.status == 0, "\(result.output)")
            #expect(FileManager.default.fileExists(atPath: screenshot))
        }

        /// A plugin added, rebuilt and removed while a tab is open (Tests/Browser/plugin_changes_in_browser.py):
        /// each time the tab shows the change without a reload, its rows and diagnostics what `/layout` says,
        /// and serve prints one line. The script prints how long each change took to show.
        @Test func aPluginChangeUpdatesAnOpenTabInChromium() async throws {
            try #require(browserAvailable, "chromium, chromedriver or selenium is missing: run Scripts/setup --browser")
            let fixture = try ServeFixture()
            let folder = fixture.folder + "/tab-plugins"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: fixture.plugins + "/libTitleFloor.so", toPath: folder + "/libTitleFloor.so")
            let badge = WorkerPreviewTests.Setup.compileBadge
            try await offThePool {
                try badge(folder + "/libBadgeFloor.so", [])
                try badge(fixture.folder + "/libBadgeFloor-rebuilt.so", ["DRAW_OUTSIDE"])
            }
            try WorkerPreviewTests.Setup.secure(folder)
            try fixture.write(
                "plugins.json",
                #"""
                {"title":"插件 Plugins","floors":[
                  {"type":"Title","id":"top","title":"上新 New in"},
                  {"type":"Badge","id":"badge","text":"徽章 badge"},
                  {"type":"ProductFeed","id":"flash","items":[
                    {"id":"p1","title":"无线耳机 Earbuds","price":"¥199","img":"p1.jpg","jump":{"url":"app://product/1"}},
                    {"id":"p2","title":"Water bottle","price":"¥59","img":"p2.jpg","jump":{"url":"app://product/2"}},
                    {"id":"p3","title":"Left out","price":true,"img":"p3.jpg"},
                    {"id":"p4","title":"Desk lamp","price":"¥89","img":"p4.jpg","jump":{"url":"app://product/4"}}]}]}
                """#)
            let server = try await offThePool {
                try RunningServer(arguments: [
                    "serve", "--plugins", folder, "--plugin-cache", fixture.folder + "/scan.json", "--port", "0",
                    fixture.pages,
                ])
            }
            defer { server.stop() }
            let screenshot = ServeRepo.buildDirectory + "/serve-plugin-change-test.png"
            let result = try await offThePool {
                try runTool(
                    "/usr/bin/env",
                    [
                        "python3", ServeRepo.root + "/Tests/Browser/plugin_changes_in_browser.py", "--base", server.url,
                        "--page", "plugins.json", "--root", fixture.pages, "--plugins", folder,
                        "--add", fixture.plugins + "/libProductFeedFloor.so",
                        "--rebuilt", fixture.folder + "/libBadgeFloor-rebuilt.so", "--screenshot", screenshot,
                    ])
            }
            print(result.output)
            #expect(result.status == 0, "\(result.output)")
            // One line on serve's terminal for each change.
            let said = try await offThePool {
                server.lines(within: 10) { lines in lines.contains { $0.contains("page error: plugins.json:1:") } }
            }
            #expect(said.contains { $0.contains("plugins: libProductFeedFloor.so added") }, "\(said)")
            #expect(said.contains { $0.contains("plugins: libBadgeFloor.so rebuilt") }, "\(said)")
            #expect(said.contains { $0.contains("plugins: libProductFeedFloor.so removed") }, "\(said)")
            // And one for the page that stopped parsing, named relative to the root.
            #expect(
                said.filter { $0.hasPrefix("floorhost serve: page error: plugins.json:1:22: ") }.count == 1, "\(said)")
        }
    }
}

extension BrowserRuns.BrowserTests {
    /// Leaving a tab and coming back (Tests/Browser/navigation_in_browser.py): the page left behind holds no
    /// event stream (`/metrics`), the page the back/forward cache restores listens again and shows what was
    /// saved meanwhile, and navigations in a row never wait for a connection a cached page holds.
    @Test func aTabThatLeftHoldsNoStreamAndOneThatCameBackCatchesUp() async throws {
        try #require(browserAvailable, "chromium, chromedriver or selenium is missing: run Scripts/setup --browser")
        let fixture = try ServeFixture()
        let page = try fixture.write(
            "away.json", #"{"title":"Away","floors":[{"type":"Title","id":"top","title":"出发 Before"}]}"#)
        let server = try await offThePool {
            try RunningServer(arguments: [
                "serve", "--plugins", fixture.plugins, "--plugin-cache", fixture.folder + "/scan.json",
                "--port", "0", fixture.pages,
            ])
        }
        defer { server.stop() }
        let result = try await offThePool {
            try runTool(
                "/usr/bin/env",
                [
                    "python3", ServeRepo.root + "/Tests/Browser/navigation_in_browser.py", "--base", server.url,
                    "--page", "away.json", "--file", page, "--before", "Before", "--after", "After",
                ])
        }
        print(result.output)
        #expect(result.status == 0, "\(result.output)")
    }
}

/// Every suite that drives headless chromium, one test at a time: run together, three chromiums on 2 cores took
/// over two minutes each in CI, and the other suites' waits (a push, a worker's answer) grew with them.
/// CI (Scripts/test) sets FLOORKIT_REQUIRE_BROWSER=1: there a missing browser is a failure, never a skipped
/// test counted as passing.
@Suite(
    .serialized,
    .enabled(
        if: browserAvailable || browserRequired, "needs chromium, chromedriver and selenium: Scripts/setup --browser"))
enum BrowserRuns {}

/// Runs `body` on a Dispatch thread and waits for it without holding one of the cooperative pool's few
/// threads (two here): a browser run blocks for seconds, and tests elsewhere await pushes meanwhile.
func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}

let browserRequired = ProcessInfo.processInfo.environment["FLOORKIT_REQUIRE_BROWSER"] == "1"

let browserAvailable: Bool =
    FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
    && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
    && ((try? runTool("/usr/bin/env", ["python3", "-c", "import selenium"]).status) == 0)

/// `floorhost serve ... --port 0` started as a child; `url` is what it printed. `stop` ends it (SIGTERM,
/// then SIGKILL after a deadline) and waits for it.
final class RunningServer: @unchecked Sendable {
    let process: Process
    let url: String
    /// The port of `url`.
    var port: Int { Int(url.split(separator: ":").last!.dropLast())! }
    private let lock = NSLock()
    private var later: [String] = []
    private let printedMore = DispatchSemaphore(value: 0)

    /// The lines serve printed after where it listens, once `enough` holds of them or `seconds` passed.
    func lines(within seconds: Double, until enough: ([String]) -> Bool) -> [String] {
        let deadline = DispatchTime.now() + seconds
        while true {
            let now = lock.withLock { later }
            if enough(now) || printedMore.wait(timeout: deadline) == .timedOut { return lock.withLock { later } }
        }
    }

    init(arguments: [String]) throws {
        process = floorhostProcess(arguments)
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        // The first line says where it listens; wait for it with a deadline, not a sleep.
        let line = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var printed = ""
        DispatchQueue.global().async {
            var data = Data()
            while !data.contains(10) {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                data += chunk
            }
            printed = String(decoding: data, as: UTF8.self)
            line.signal()
        }
        guard line.wait(timeout: .now() + 60) == .success,
            let match = printed.firstMatch(of: #/http://127\.0\.0\.1:\d+//#)
        else {
            process.terminate()
            throw ServeFailure("floorhost serve did not say where it listens: \(printed)")
        }
        url = String(match.output)
        // Later lines (plugin changes, page errors) are kept for the test to read.
        let first = printed
        DispatchQueue.global().async { [self] in
            var pending = Data(first.utf8.drop { $0 != 10 }.dropFirst())
            while true {
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending = Data(pending[(newline + 1)...])
                    lock.withLock { later.append(line) }
                    printedMore.signal()
                }
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { return }
                pending += chunk
            }
        }
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// Runs a program to completion; its stdout and stderr together.
func runTool(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
