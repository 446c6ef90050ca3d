import FloorRuntime
import FloorSession
import Foundation
import Testing

/// A key repeated in a floor object or in the page object is reported with its path (the last value is
/// used, by the scanner and by the plugins' decoders alike), in render and in check.
struct DuplicateKeyTests {
    @Test func theScannerNamesEveryRepeatedKeyWithItsPath() throws {
        let page =
            #"{"floors":[{"type":"Title","id":"a","title":"one"},{"type":"Title","id":"b","title":"x","t\u0069tle":"y","id":"b2","title":"z"}],"next":null,"next":"p2.json"}"#
        let spec = try PageScanner.scan(Array(page.utf8))
        #expect(spec.floors[0].problems.map(\.text) == [])
        #expect(
            spec.floors[1].problems.map(\.text) == [
                "floors[1].title: duplicate key 'title'; the last value is used",
                "floors[1].id: duplicate key 'id'; the last value is used",
                "floors[1].title: duplicate key 'title'; the last value is used",
            ])
        #expect(spec.floors[1].id == "b2" && spec.next == "p2.json")
        #expect(spec.problems.map(\.text) == ["next: duplicate key 'next' in the page; the last value is used"])
    }

    @Test func keysOfNestedObjectsAndDistinctKeysAreNotReported() throws {
        let page =
            #"{"floors":[{"type":"Title","id":"a","header":{"title":"h"},"title":"t","items":[{"id":1},{"id":2}]}],"next":null}"#
        let spec = try PageScanner.scan(Array(page.utf8))
        #expect(spec.floors[0].problems.map(\.text) == [] && spec.problems.map(\.text) == [])
    }

    @Test func renderAndCheckReportARepeatedKey() throws {
        let folder = try TemporaryFolder("duplicates")
        let plugins = try folder.installShippedPlugins(["Title"])
        let page = try folder.write(
            "page.json",
            #"{"floors":[{"type":"Title","id":"a","title":"first"},{"type":"Title","id":"b","title":"old","title":"new"}],"floors":[{"type":"Title","id":"a","title":"first"},{"type":"Title","id":"b","title":"old","title":"new"}]}"#
        )
        let render = try floorhost(["--plugins", plugins, page, "--format", "json"])
        #expect(render.status == 0, "\(render.stderr)")
        let messages = (try jsonObject(render.stdout)["diagnostics"] as? [[String: Any]] ?? []).compactMap {
            $0["message"] as? String
        }
        #expect(
            messages.contains(
                "\(page):1:109: floors: duplicate key 'floors' in the page; the last value is used (ignored)"),
            "\(messages)")
        #expect(
            messages.contains(
                "\(page):1:200: floors[1].title (floor 'b'): duplicate key 'title'; the last value is used (ignored)"),
            "\(messages)")
        #expect(render.stdout.contains("new") && !render.stdout.contains("\"old\""))
        // A repeated key changes nothing a plugin shows (every decoder takes the last value): a warning, which
        // fails check only with --strict.
        let check = try floorhost(["check", "--plugins", plugins, page])
        #expect(check.status == 0)
        #expect(check.stdout.hasSuffix("ok: 1 page checked; 2 warnings\n"), "\(check.stdout)")
        let strict = try floorhost(["check", "--strict", "--plugins", plugins, page])
        #expect(strict.status == 1)
        #expect(strict.stdout.hasSuffix("2 warnings (--strict) in 1 page\n"), "\(strict.stdout)")
        #expect(
            (check.stdout + check.stderr).contains(
                "floors[1].title (floor 'b'): duplicate key 'title'; the last value is used"))
    }
}

/// One problem at many places is one line with its count in the text outputs (Diagnostic.grouped);
/// `check --format json` keeps every place for pipelines.
struct GroupedDiagnosticOutputTests {
    @Test func fiftyThousandRepeatsOfAKeyAreOneLineAndCheckJSONKeepsEachPlace() throws {
        let folder = try TemporaryFolder("grouped")
        let plugins = try folder.installShippedPlugins(["Title"])
        let keys = (0..<50_000).map { #""subtitle":"\#($0)""# }.joined(separator: ",")
        let page = try folder.write("keys.json", #"{"floors":[{"type":"Title","id":"t","title":"重复","# + keys + "}]}")
        let render = try floorhost(["--plugins", plugins, page])
        #expect(render.status == 0)
        let lines = render.stderr.split(separator: "\n")
        #expect(lines.count == 1 && render.stderr.utf8.count < 1_024, "\(render.stderr.prefix(2_000))")
        #expect(
            render.stderr.contains(
                "floors[0].subtitle (floor 't'): duplicate key 'subtitle'; the last value is used (ignored); 49,999 times in all, the first at floors[0].subtitle 1:"
            ))
        let check = try floorhost(["check", "--plugins", plugins, page])
        #expect(check.status == 0)
        #expect(
            check.stdout.split(separator: "\n").count == 2 && check.stdout.utf8.count < 1_024,
            "\(check.stdout.prefix(2_000))")
        #expect(check.stdout.hasSuffix("ok: 1 page checked; 49999 warnings\n"), "\(check.stdout.suffix(200))")
        let json = try floorhost(["check", "--plugins", plugins, page, "--format", "json"])
        let problems = try jsonObject(json.stdout)["problems"] as? [[String: Any]] ?? []
        #expect(problems.count == 49_999 && problems.allSatisfy { $0["count"] == nil })
    }

    /// Pages checked in child processes (`--jobs 2`) group as one process does: a child hands each problem's
    /// `about` to the parent.
    @Test func checkedInChildrenTheyGroupToo() throws {
        let folder = try TemporaryFolder("grouped")
        let plugins = try folder.installShippedPlugins(["Title"])
        let keys = (0..<1_000).map { #""subtitle":"\#($0)""# }.joined(separator: ",")
        for name in ["a.json", "b.json"] {
            try folder.write("pages/" + name, #"{"floors":[{"type":"Title","id":"t","title":"重复","# + keys + "}]}")
        }
        let check = try floorhost(["check", "--jobs", "2", "--plugins", plugins, folder.file("pages")])
        let lines = check.stdout.split(separator: "\n")
        #expect(
            lines.count == 3 && lines.prefix(2).allSatisfy { $0.contains("999 times in all") }, "\(lines.prefix(5))")
        #expect(lines.last == "ok: 2 pages checked; 1998 warnings")
    }

    @Test func differentProblemsAreSeparateLines() throws {
        let folder = try TemporaryFolder("grouped")
        let plugins = try folder.installShippedPlugins(["Title"])
        let page = try folder.write(
            "three.json",
            #"{"floors":[{"type":"Title","id":"t","title":"a","title":"b","id":"t","subtitle":"c","subtitle":"d"}]}"#)
        let render = try floorhost(["--plugins", plugins, page])
        #expect(
            render.stderr.split(separator: "\n").count == 3 && !render.stderr.contains("times in all"),
            "\(render.stderr)")
    }
}
