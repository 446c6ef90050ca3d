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
        #expect(spec.floors[0].problems == [])
        #expect(
            spec.floors[1].problems == [
                "floors[1].title: duplicate key 'title'; the last value is used",
                "floors[1].id: duplicate key 'id'; the last value is used",
                "floors[1].title: duplicate key 'title'; the last value is used",
            ])
        #expect(spec.floors[1].id == "b2" && spec.next == "p2.json")
        #expect(spec.problems == ["next: duplicate key 'next' in the page; the last value is used"])
    }

    @Test func keysOfNestedObjectsAndDistinctKeysAreNotReported() throws {
        let page =
            #"{"floors":[{"type":"Title","id":"a","header":{"title":"h"},"title":"t","items":[{"id":1},{"id":2}]}],"next":null}"#
        let spec = try PageScanner.scan(Array(page.utf8))
        #expect(spec.floors[0].problems == [] && spec.problems == [])
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
            messages.contains("\(page): floors: duplicate key 'floors' in the page; the last value is used"),
            "\(messages)")
        #expect(
            messages.contains("\(page): floors[1].title: duplicate key 'title'; the last value is used"), "\(messages)")
        #expect(render.stdout.contains("new") && !render.stdout.contains("\"old\""))
        let check = try floorhost(["check", "--plugins", plugins, page])
        #expect(check.status == 1)
        #expect(
            (check.stdout + check.stderr).contains("floors[1].title: duplicate key 'title'; the last value is used"))
    }
}
