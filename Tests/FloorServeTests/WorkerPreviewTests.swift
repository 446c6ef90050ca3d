import FloorServe
import FloorSession
import Foundation
import Testing

@testable import FloorServe

/// Plugins without a restart: the server's plugins and sessions live in a worker process (the built
/// `floorhost serve-worker`) that is replaced when plugins change or fail, with the sessions replayed.
@Suite(.serialized)
struct WorkerPreviewTests {
    /// A page folder, a plugin folder with `plugins` of the shipped ones, and a WorkerPreview over them.
    final class Setup: @unchecked Sendable {
        let fixture: ServeFixture
        let folder: String
        let preview: WorkerPreview

        init(plugins: [String], callTimeout: Double = 5) throws {
            fixture = try ServeFixture()
            folder = fixture.folder + "/worker-plugins"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for name in plugins {
                try FileManager.default.copyItem(
                    atPath: fixture.plugins + "/lib\(name)Floor.so", toPath: folder + "/lib\(name)Floor.so")
            }
            try Self.secure(folder)
            preview = try WorkerPreview(
                command: [
                    ServeRepo.buildDirectory + "/floorhost", "serve-worker", "--plugins", folder,
                    "--plugin-cache", fixture.folder + "/scan-cache.json", fixture.pages,
                ],
                pluginFolder: folder, root: fixture.preview.root, rootArgument: fixture.pages, callTimeout: callTimeout)
        }

        /// floorhost refuses plugin files others can write; a umask of 002 makes them so.
        static func secure(_ path: String) throws {
            chmod(path, 0o755)
            for name in try FileManager.default.contentsOfDirectory(atPath: path) { chmod(path + "/" + name, 0o755) }
        }

        func view(_ id: String, offset: Double = 0) throws -> PreviewSessionTests.View {
            let bytes = try #require(preview.view(id, offset: offset, knownVersion: -1))
            return PreviewSessionTests.View(
                object: try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]))
        }

        func compileBadge(to output: String, defines: [String]) throws {
            try Self.compileBadge(output, defines)
        }

        /// Tests/Fixtures/CPlugins/badge.c built as `output` with `defines` (e.g. DRAW_OUTSIDE).
        static func compileBadge(_ output: String, _ defines: [String]) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments =
                ["cc", "-shared", "-fPIC", "-I", ServeRepo.root + "/SDK/Sources/CFloorABI/include"]
                + defines.map { "-D" + $0 } + [ServeRepo.root + "/Tests/Fixtures/CPlugins/badge.c", "-o", output]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
    }

    static func html(_ view: PreviewSessionTests.View) -> String { view.rows.map { $0["html"] as! String }.joined() }

    @Test func aNewPluginReplacesItsPlaceholdersWithoutARestart() async throws {
        let setup = try Setup(plugins: ["Focus", "IconGrid", "Title"])
        let id = setup.preview.open(setup.fixture.pages + "/home.json", phone: .standard)
        let pushes = try #require(setup.preview.subscribe(id))
        let flash = 5 * 84.0  // the flash sale's products start below the first screen's top rows
        #expect(Self.html(try setup.view(id, offset: flash)).contains("unknown floor type &#39;ProductFeed&#39;"))
        #expect(!setup.preview.checkPlugins())
        try FileManager.default.copyItem(
            atPath: setup.fixture.plugins + "/libProductFeedFloor.so", toPath: setup.folder + "/libProductFeedFloor.so")
        try Setup.secure(setup.folder)
        #expect(setup.preview.checkPlugins())
        #expect(await PreviewSessionTests.push("reload", on: pushes))
        let after = Self.html(try setup.view(id, offset: flash))
        #expect(!after.contains("unknown floor type"))
        #expect(after.contains("data-type=\"ProductCard\""))
        // A fresh worker serves the new plugin (one full-suite run under load saw a third start, a worker
        // recovered without a plugin failure to report; left to find: see the issue notes).
        #expect(setup.preview.workersStarted >= 2)
    }

    /// What a tab holds after a plugin change, driven as the client script drives it (it reports the
    /// layout version it has): a new version, so every row it draws is redrawn, and the diagnostics of the
    /// page as `/layout` has them now. Before each worker's sessions started their versions where the last
    /// worker's stopped, a tab that had version 1 was told nothing new by a fresh worker's version 1.
    @Test func everyPluginChangeReachesATabThatKnowsAVersion() async throws {
        let setup = try Setup(plugins: ["Focus", "IconGrid", "Title"])
        let file = setup.fixture.pages + "/home.json"
        let id = setup.preview.open(file, phone: .standard)
        let pushes = try #require(setup.preview.subscribe(id))
        let flash = 5 * 84.0
        func diagnostics(_ view: PreviewSessionTests.View) -> [String] {
            (view.object["diagnostics"] as? [[String: Any]] ?? []).map { $0["message"] as! String }
        }
        func layoutDiagnostics() throws -> [String] {
            guard case .success(let bytes) = setup.preview.layoutJSON(file) else { return ["no layout"] }
            let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            return (object["diagnostics"] as? [[String: Any]] ?? []).map {
                ($0["message"] as! String).replacingOccurrences(of: setup.fixture.pages + "/", with: "")
            }
        }
        let before = try setup.view(id, offset: flash)
        #expect(diagnostics(before).contains { $0.contains("unknown floor type 'ProductFeed'") })
        let library = setup.folder + "/libProductFeedFloor.so"
        var version = before.version
        for change in ["added", "removed"] {
            if change == "added" {
                try FileManager.default.copyItem(
                    atPath: setup.fixture.plugins + "/libProductFeedFloor.so", toPath: library)
                try Setup.secure(setup.folder)
            } else {
                try FileManager.default.removeItem(atPath: library)
            }
            #expect(setup.preview.checkPlugins())
            #expect(await PreviewSessionTests.push("reload", on: pushes))
            let bytes = try #require(setup.preview.view(id, offset: flash, knownVersion: version))
            let after = PreviewSessionTests.View(
                object: try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]))
            #expect(after.version != version, "plugin \(change): the tab must redraw its rows")
            #expect(after.object["diagnostics"] != nil, "plugin \(change): the tab must get the diagnostics")
            // The tab may have loaded next pages on the way (a short page fills its screen); /layout has the
            // first page alone: the first page's diagnostics are the same.
            let first = diagnostics(after).filter { $0.hasPrefix("home.json:") }
            #expect(first == (try layoutDiagnostics()), "plugin \(change)")
            #expect(Self.html(after).contains("unknown floor type") == (change == "removed"), "plugin \(change)")
            // Getting back to where the tab is in the fresh worker is not news: row 0 was displayed before.
            #expect(!after.events.contains { $0["kind"] as? String == "willDisplay" && $0["row"] as? Int == 0 })
            version = after.version
        }
    }

    /// The rows a tab holds reach the worker (WorkerRequest's `held`): held unchanged, they are not drawn again;
    /// after a plugin is added, the rows it changed are, and the rest stay held.
    @Test func theRowsATabHoldsReachTheWorker() async throws {
        let setup = try Setup(plugins: ["Focus", "IconGrid", "Title"])
        let id = setup.preview.open(setup.fixture.pages + "/home.json", phone: .standard)
        func report(_ held: HeldRows) throws -> (rows: [[String: Any]], load: String) {
            let bytes = try #require(setup.preview.view(id, offset: 5 * 84, knownVersion: -1, held: held))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            return (
                object["rows"] as? [[String: Any]] ?? [], (object["load"] as? [String: Any])?["state"] as? String ?? ""
            )
        }
        // The next pages (their feed placeholders are short) load first: then the rows stay as they are.
        let first = try #require(
            try eventually(seconds: 30) { () -> [[String: Any]]? in
                let answer = try report(HeldRows())
                return answer.load == "end" ? answer.rows : nil
            })
        let held = HeldRows(
            Dictionary(
                uniqueKeysWithValues: first.compactMap { row in
                    (row["index"] as? Int).map { ($0, row["tag"] as? String ?? "") }
                }))
        #expect(first.allSatisfy { $0["html"] != nil })
        #expect(try report(held).rows.allSatisfy { $0["html"] == nil })
        let pushes = try #require(setup.preview.subscribe(id))
        try FileManager.default.copyItem(
            atPath: setup.fixture.plugins + "/libProductFeedFloor.so", toPath: setup.folder + "/libProductFeedFloor.so")
        try Setup.secure(setup.folder)
        #expect(setup.preview.checkPlugins())
        #expect(await PreviewSessionTests.push("reload", on: pushes))
        let after = try report(held).rows
        let redrawn = after.filter { $0["html"] != nil }
        #expect(!redrawn.isEmpty && redrawn.count < after.count, "\(redrawn.count) of \(after.count) redrawn")
    }

    @Test func aRebuiltPluginTakesEffect() throws {
        let setup = try Setup(plugins: ["Title"])
        let library = setup.folder + "/libBadgeFloor.so"
        try setup.compileBadge(to: library, defines: [])
        try Setup.secure(setup.folder)
        try setup.fixture.write("badge.json", #"{"floors":[{"type":"Badge","id":"b","text":"徽章 badge"}]}"#)
        setup.preview.checkPlugins()
        let id = setup.preview.open(setup.fixture.pages + "/badge.json", phone: .standard)
        #expect(Self.html(try setup.view(id)).contains("<div class=\"box\" style=\"left:0px;top:0px;width:375px;"))
        // The rebuilt library draws its frame 10 points wider (badge.c's DRAW_OUTSIDE).
        try setup.compileBadge(to: library + ".new", defines: ["DRAW_OUTSIDE"])
        #expect(rename(library + ".new", library) == 0)
        try Setup.secure(setup.folder)
        #expect(setup.preview.checkPlugins())
        #expect(Self.html(try setup.view(id)).contains("<div class=\"box\" style=\"left:0px;top:0px;width:385px;"))
    }

    /// A plugin that crashes on one floor's data: the worker dies, a fresh one leaves that floor out, the
    /// request is answered, and so is the next one.
    @Test func aPluginCrashingOnOneFloorLeavesThatFloorOut() throws {
        let setup = try Setup(plugins: ["Title"])
        try setup.compileBadge(to: setup.folder + "/libBadgeFloor.so", defines: ["CRASHES_ON_DATA"])
        try Setup.secure(setup.folder)
        setup.preview.checkPlugins()
        try setup.fixture.write(
            "crash.json",
            #"""
            {"floors":[{"type":"Title","id":"top","title":"上面 Above"},
                       {"type":"Badge","id":"bad","text":"crash:height"},
                       {"type":"Badge","id":"good","text":"好 fine"},
                       {"type":"Title","id":"end","title":"下面 Below"}]}
            """#)
        let started = setup.preview.workersStarted
        let id = setup.preview.open(setup.fixture.pages + "/crash.json", phone: .standard)
        let first = try #require(setup.preview.firstScreen(id))
        #expect(first.error == nil)
        let html = Self.html(try setup.view(id))
        #expect(html.contains("上面 Above") && html.contains("好 fine") && html.contains("下面 Below"))
        #expect(
            html.contains("Badge &#39;bad&#39; not shown: its plugin crashed with SIGSEGV in its height calculator"))
        #expect(setup.preview.workersStarted == started + 1)
        // The next request is answered by the same (fresh) worker.
        #expect(try setup.view(id, offset: 10).rows.isEmpty == false)
        #expect(setup.preview.workersStarted == started + 1)
    }

    /// A plugin that never returns on one floor: the worker is killed after the call timeout, and a fresh
    /// one leaves that floor out; the server answers.
    @Test func aPluginHangingOnOneFloorLeavesThatFloorOut() throws {
        let setup = try Setup(plugins: ["Title"], callTimeout: 1)
        try setup.compileBadge(to: setup.folder + "/libBadgeFloor.so", defines: ["CRASHES_ON_DATA"])
        try Setup.secure(setup.folder)
        setup.preview.checkPlugins()
        try setup.fixture.write(
            "hang.json",
            #"{"floors":[{"type":"Badge","id":"stuck","text":"hang:cell"},{"type":"Title","id":"t","title":"还在 Still here"}]}"#
        )
        let id = setup.preview.open(setup.fixture.pages + "/hang.json", phone: .standard)
        let html = Self.html(try setup.view(id))
        #expect(html.contains("还在 Still here"))
        #expect(
            html.contains("Badge &#39;stuck&#39; not shown: its plugin hung (no answer for 1 s) in its cell selector"))
    }
}

extension WorkerPreviewTests {
    /// A plugin made writable by others while serving (only its mode changes, not its time) is noticed at
    /// the next look: a fresh worker takes over, which refuses it, and the log says what changed. The
    /// folder's own mode is looked at too.
    @Test func aModeChangeAloneReplacesTheWorker() throws {
        let setup = try Setup(plugins: ["Focus", "IconGrid", "Title"])
        #expect(setup.preview.checkPlugins() == false)
        let library = setup.folder + "/libTitleFloor.so"
        #expect(chmod(library, 0o777) == 0)
        #expect(setup.preview.checkPlugins())
        #expect(
            PluginChange.describe(
                from: [library: Self.stamp(library, mode: 0o100755)], to: [library: FileStamp(library)])
                == "libTitleFloor.so's mode changed to 777")
        #expect(chmod(library, 0o755) == 0)
        #expect(setup.preview.checkPlugins())
        #expect(chmod(setup.folder, 0o777) == 0)
        defer { chmod(setup.folder, 0o755) }
        #expect(setup.preview.checkPlugins())
        #expect(setup.preview.checkPlugins() == false, "nothing changed since")
    }

    /// `path`'s stamp as it was with `mode`.
    static func stamp(_ path: String, mode: UInt32) -> FileStamp? {
        FileStamp(path).map { FileStamp(inode: $0.inode, size: $0.size, modified: $0.modified, mode: mode) }
    }
}
