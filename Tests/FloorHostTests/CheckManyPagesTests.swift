import FloorCheck
import FloorSession
import Foundation
import Testing

/// `floorhost check` over many pages (files, folders, globs), in parallel child processes, one summary.
@Suite struct CheckManyPagesTests {
    /// A folder of pages: the three example pages (one chain), two copies of home.json with their own
    /// typos, and a page that does not parse.
    func pages(in folder: TemporaryFolder) throws -> String {
        for name in ["home.json", "home-2.json", "home-3.json"] {
            try folder.write("pages/\(name)", String(contentsOfFile: Repo.path("Examples/" + name), encoding: .utf8))
        }
        let home = try String(contentsOfFile: Repo.path("Examples/home.json"), encoding: .utf8)
        try folder.write("pages/a.json", home.replacingOccurrences(of: #""next""#, with: #""nxt""#))
        let columns = try #require(home.range(of: #""columns""#))
        try folder.write("pages/b.json", home.replacingCharacters(in: columns, with: #""colums""#))
        try folder.write("pages/more/broken.json", #"{"floors": [}"#)
        try folder.write("pages/.hidden/ignored.json", "not json")
        return folder.file("pages")
    }

    /// The 1-based line of the first `text` in `file`.
    func line(of text: String, in file: String) throws -> Int {
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.firstIndex { $0.contains(text) }) + 1
    }

    @Test func aFolderIsCheckedInParallelWithOneSummary() throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins()
        let root = try pages(in: folder)
        let parallel = try floorhost(["check", "--plugins", plugins, root, "--format", "json", "--jobs", "2"])
        #expect(parallel.status == 1, "\(parallel.stderr)")
        let report = try jsonObject(parallel.stdout)
        let problems = try #require(report["problems"] as? [[String: Any]])
        let messages = problems.compactMap { $0["message"] as? String }
        let nxtLine = try line(of: #""nxt""#, in: root + "/a.json")
        let columsLine = try line(of: #""colums""#, in: root + "/b.json")
        // home-2 and home-3 are reached from home.json (and b.json, not a.json: its link is misspelt), so they
        // are checked in those chains, never on their own.
        #expect(
            messages.contains(
                "\(root)/a.json:\(try line(of: #""nxt""#, in: root + "/a.json")):2: nxt: unknown field of the page; did you mean 'next'? (ignored)"
            ),
            "\(messages)")
        #expect(
            messages.contains {
                $0.hasPrefix(
                    "\(root)/b.json:\(columsLine):4: floors[1].colums (floor 'channels'): unknown field of IconGrid; did you mean 'columns'?"
                )
            }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("\(root)/more/broken.json:1:13: ") }, "\(messages)")
        #expect(messages.count == 3, "\(messages)")
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(summary["problems"] as? Int == 3)
        let pages = try #require(report["pages"] as? [String])
        #expect(pages.count == 6)

        // One process, one page after another: the same report.
        let serial = try floorhost(["check", "--plugins", plugins, root, "--format", "json", "--jobs", "1"])
        #expect(serial.status == 1)
        #expect(serial.stdout == parallel.stdout)
    }

    @Test func filesAndGlobsNameThePages() throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins()
        let root = try pages(in: folder)
        let result = try floorhost(["check", "--plugins", plugins, root + "/home.json", root + "/[ab].json"])
        #expect(result.status == 1)
        #expect(result.stdout.hasSuffix("2 errors in 5 pages\n"), "\(result.stdout)")
        let none = try floorhost(["check", "--plugins", plugins, root + "/nothing-*.json"])
        #expect(none.status == 2)
        #expect(none.stderr.contains("\(root)/nothing-*.json: no file matches this pattern"))
    }

    @Test func theSetOfPagesExpandsFoldersAndGlobsInOrder() throws {
        let folder = try TemporaryFolder()
        let root = try pages(in: folder)
        #expect(
            try PageSet.expand([root])
                == ["a.json", "b.json", "home-2.json", "home-3.json", "home.json", "more/broken.json"].map {
                    "\(root)/\($0)"
                })
        #expect(
            try PageSet.expand([root + "/more", root + "/*.json", root + "/a.json"])
                == ["more/broken.json", "a.json", "b.json", "home-2.json", "home-3.json", "home.json"].map {
                    "\(root)/\($0)"
                })
    }

    /// The chains that reach a page report it; a loop of next pages is reported once, by its first page.
    @Test func aPageAnotherChainReachesIsReportedThere() {
        let a = PageCheck(pages: ["a", "b"], problems: [])
        let b = PageCheck(pages: ["b"], problems: [])
        let c = PageCheck(pages: ["c", "d"], problems: [])
        let d = PageCheck(pages: ["d", "c"], problems: [])
        #expect(PageBatch.covering([b, a, d, c]).map(\.pages) == [["a", "b"], ["d", "c"]])
    }
}
