import FloorRuntime
import Foundation
import Testing

/// What check tells an editor (ARCHITECTURE.md, "Diagnostics"): a level that means something (errors fail,
/// warnings inform, info never counts), a position in the file, and what happened to the content.
@Suite struct SeverityTests {
    /// A page as a CMS exports it: its own metadata beside the floors, and one real mistake.
    static let cmsPage = #"""
        {
          "id": "page-20261126-home",
          "version": 42,
          "updatedAt": "2026-11-26T10:00:00Z",
          "title": "Home",
          "floors": [
            {"type": "Title", "id": "t1", "title": "Hello", "trackingId": "abc"},
            {"type": "Title", "id": "t2", "title": "World"}
          ]
        }
        """#

    @Test func aCMSPagesMetadataIsAWarningAndCheckPasses() throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins(["Title"])
        let page = try folder.write("cms.json", Self.cmsPage)
        let text = try floorhost(["check", "--plugins", plugins, page])
        #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
        #expect(
            text.stdout.split(separator: "\n").map(String.init) == [
                "warning: \(page):2:3: id: unknown field of the page (a page has: floors, next, title, and $schema) (ignored)",
                "warning: \(page):3:3: version: unknown field of the page (a page has: floors, next, title, and $schema) (ignored)",
                "warning: \(page):4:3: updatedAt: unknown field of the page (a page has: floors, next, title, and $schema) (ignored)",
                "warning: \(page):7:53: floors[0].trackingId (floor 't1'): unknown field of Title (its fields here: type, pattern, id, header, margin, layout, columns, title, subtitle) (ignored)",
                "ok: 1 page checked; 4 warnings",
            ], "\(text.stdout)")
        let strict = try floorhost(["check", "--strict", "--plugins", plugins, page])
        #expect(strict.status == 1)
        #expect(strict.stdout.hasSuffix("4 warnings (--strict) in 1 page\n"), "\(strict.stdout)")
        // json: each problem with its level, position (1-based line and column, byte offset) and consequence.
        let json = try jsonObject(try floorhost(["check", "--plugins", plugins, page, "--format", "json"]).stdout)
        let problems = try #require(json["problems"] as? [[String: Any]])
        let first = try #require(problems.first)
        #expect(first["level"] as? String == "warning" && first["consequence"] as? String == "ignored")
        #expect(first["line"] as? Int == 2 && first["column"] as? Int == 3 && first["offset"] as? Int == 4)
        #expect(first["path"] as? String == "id")
        let summary = try #require(json["summary"] as? [String: Any])
        #expect(summary["ok"] as? Bool == true && summary["errors"] as? Int == 0 && summary["warnings"] as? Int == 4)
    }

    /// `--allow-field NAME` (repeatable) names a CMS's own fields: check, render and a serve worker say
    /// nothing of them, at any depth (the page, a floor, an item), near misses included; other unknown
    /// fields are still warned about.
    @Test func allowedFieldsAreTheCMSsOwnAndNotWarnedAbout() throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins(["Title", "IconGrid"])
        let page = try folder.write(
            "cms.json",
            Self.cmsPage.replacingOccurrences(
                of: #"{"type": "Title", "id": "t2", "title": "World"}"#,
                with:
                    #"{"type": "IconGrid", "id": "g", "items": [{"id": "i", "img": "i.svg", "title": "I", "trackingId": "x"}]}"#
            ))
        let allowing = ["--allow-field", "id", "--allow-field", "version", "--allow-field", "trackingId"]
        let check = try floorhost(["check", "--plugins", plugins, page] + allowing)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(
            check.stdout.split(separator: "\n").map(String.init) == [
                "warning: \(page):4:3: updatedAt: unknown field of the page (a page has: floors, next, title, and $schema) (ignored)",
                "ok: 1 page checked; 1 warning",
            ], "\(check.stdout)")
        // Without the option, the item's field is warned about too (so the test above can fail).
        let plain = try floorhost(["check", "--plugins", plugins, page])
        #expect(plain.stdout.contains("floors[1].items[0].trackingId"), "\(plain.stdout)")
        // A near miss the CMS names as its own is not a typo either.
        let nearMiss = try folder.write("near.json", #"{"titel":"x","floors":[{"type":"Title","id":"a","title":"T"}]}"#)
        #expect(try floorhost(["check", "--plugins", plugins, nearMiss]).status == 1)
        #expect(try floorhost(["check", "--plugins", plugins, nearMiss, "--allow-field", "titel"]).status == 0)
        // render (through its supervised child) says nothing of them on stderr.
        let render = try floorhost(["render", "--plugins", plugins, page, "--format", "json"] + allowing)
        let rendered = try jsonObject(render.stdout)
        let said = try #require(rendered["diagnostics"] as? [[String: Any]]).compactMap { $0["path"] as? String }
        #expect(said == ["updatedAt"], "\(said)")
    }

    /// Errors and warnings on one page: the summary counts each, errors fail.
    @Test func theSummaryCountsErrorsAndWarnings() throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins(["Title"])
        let page = try folder.write(
            "mixed.json",
            #"{"id":"x","floors":[{"type":"Title","id":"a","Title":"T"},{"type":"Coupon","id":"c"}],"nxt":"b.json"}"#)
        let result = try floorhost(["check", "--plugins", plugins, page])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.last == "4 errors, 1 warning in 1 page", "\(lines)")
        #expect(lines.contains { $0.hasPrefix("warning: \(page):1:2: id: ") })
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "error: \(page):1:46: floors[0].Title (floor 'a'): unknown field of Title; did you mean 'title'?")
            })
        #expect(
            lines.contains {
                $0.hasPrefix("error: \(page):1:21: floors[0].title (floor 'a'): ")
                    && $0.hasSuffix("(shown as a placeholder)")
            })
        #expect(
            lines.contains { $0.hasPrefix("error: \(page):1:59: floors[1] (floor 'c'): unknown floor type 'Coupon'") })
        #expect(
            lines.contains { $0.hasPrefix("error: \(page):1:87: nxt: unknown field of the page; did you mean 'next'?") }
        )
    }

    /// A plugin's own info messages, from its calls or from a thread of its own, never count.
    @Test func aPluginsInfoMessagesNeverCount() throws {
        let folder = try TemporaryFolder()
        let plugins = folder.file("plugins")
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try compileCPlugin(to: plugins + "/libBadge.so", defines: ["CHATTY"])
        let floors = (0..<20).map { #"{"type":"Badge","id":"b\#($0)","text":"x"}"# }.joined(separator: ",")
        let page = try folder.write("p.json", #"{"floors":[\#(floors)]}"#)
        for isolation in [[], ["--no-plugin-isolation"]] {
            let result = try floorhost(["check", "--plugins", plugins, page] + isolation)
            #expect(result.status == 0, "\(isolation): \(result.stdout)\(result.stderr)")
            #expect(result.stdout == "ok: 1 page checked, no problems\n", "\(isolation)")
        }
    }

    /// The near-miss rule: the same name but for case, or one edit from a known name of 4 or more characters.
    @Test(arguments: [
        ("colums", "columns"), ("nxt", "next"), ("Title", "title"), ("TITLE", "title"), ("tittle", "title"),
        ("ttile", "title"), ("titl", "title"), ("ID", "id"),
    ])
    func aNearMissIsNamed(typed: String, meant: String) {
        #expect(Suggestion.nearMiss(typed, among: ["id", "next", "title", "columns", "floors"]) == meant)
    }

    @Test(arguments: ["idd", "i", "version", "updatedAt", "trackingId", "tit", "colummns2"])
    func metadataIsNoNearMiss(typed: String) {
        #expect(Suggestion.nearMiss(typed, among: ["id", "next", "title", "columns", "floors"]) == nil)
    }
}
