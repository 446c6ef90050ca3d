import FloorLayout
import FloorRuntime
import Foundation
import Testing

/// `floorhost diff` speaks of content first: on the fixture pair Tests/Fixtures/Diff/promo.json →
/// promo-edited.json (a banner's title, an icon deleted, a price, an item and a floor moved, a floor deleted
/// and one added, the page's title and a CMS's version field), every change keyed by floor and item ids with
/// its value before and after, in text and json alike; then ContentDiff on its own, for what a page may hold
/// that the shipped plugins never see.
struct DiffContentTests {
    let folder: TemporaryFolder
    let plugins: String
    let old = Repo.path("Tests/Fixtures/Diff/promo.json")
    let new = Repo.path("Tests/Fixtures/Diff/promo-edited.json")

    init() throws {
        folder = try TemporaryFolder()
        plugins = try folder.installShippedPlugins()
    }

    /// The content lines the fixture pair must give, in order.
    private let expected = [
        #"page: title: "Promo" → "Promo week""#,
        "page: cmsVersion: 41 → 42",
        #"floor 'banners' (Focus): item 'b2' title: "Fresh tomorrow" → "Fresh in an hour""#,
        "floor 'icons' (IconGrid): item 'c2' deleted (was items[2])",
        "floor 'flash' (ProductFeed): item 'p2' moved from items[2] to items[0]",
        "floor 'flash' (ProductFeed): item 'p1' price: 59.9 → 49.9",
        "floor 'old-title' (Title) deleted (was floors[5])",
        "floor 'flash-title' (Title) moved from floors[2] to floors[4]",
        #"floor 'flash-title' (Title): subtitle added: "Until midnight""#,
        "floor 'hot-title' (Title) added at floors[5]",
    ]

    @Test func textSaysWhatTheEditorChangedBeforeWhatTheScreenDoes() throws {
        let result = try floorhost(["diff", "--plugins", plugins, old, new])
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("10 changes in the content; on screen") == true, "\(lines)")
        let content = try #require(lines.firstIndex(of: "content:"))
        let screen = try #require(lines.firstIndex(of: "screen:"))
        #expect(content == 1 && screen > content)
        #expect(Array(lines[(content + 1)..<screen]).map { $0.trimmingCharacters(in: .whitespaces) } == expected)
    }

    @Test func jsonCarriesTheSameContentLinesWithValuesAsJSON() throws {
        let result = try floorhost(["diff", "--plugins", plugins, old, new, "--format", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        let json = try jsonObject(result.stdout)
        let content = try #require(json["content"] as? [[String: Any]])
        #expect(content.count == expected.count)
        let price = try #require(content.first { $0["item"] as? String == "p1" })
        #expect(price["change"] as? String == "changed" && price["field"] as? String == "price")
        #expect(number(price["old"]) == 59.9 && number(price["new"]) == 49.9)
        #expect(price["floor"] as? String == "flash" && price["floorType"] as? String == "ProductFeed")
        #expect(
            price["oldPath"] as? String == "floors[3].items[1]" && price["newPath"] as? String == "floors[2].items[2]")
        let moved = try #require(content.first { $0["floor"] as? String == "flash-title" && $0["field"] == nil })
        #expect(moved["change"] as? String == "moved")
        #expect(moved["oldPath"] as? String == "floors[2]" && moved["newPath"] as? String == "floors[4]")
        let banner = try #require(content.first { $0["item"] as? String == "b2" })
        #expect(banner["old"] as? String == "Fresh tomorrow" && banner["new"] as? String == "Fresh in an hour")
        let deleted = try #require(content.first { $0["item"] as? String == "c2" })
        #expect(deleted["change"] as? String == "deleted" && deleted["old"] == nil && deleted["new"] == nil)
        #expect(json["same"] as? Bool == false)
    }

    @Test func aChangeOnlyTheCMSSeesIsAChangeButNotOnScreen() throws {
        let text = try String(contentsOfFile: old, encoding: .utf8)
        let bumped = try folder.write("bumped.json", text.replacingOccurrences(of: "41", with: "43"))
        let result = try floorhost(["diff", "--plugins", plugins, old, bumped])
        #expect(result.status == 1, "the pages differ: \(result.stdout)")
        #expect(result.stdout.contains("1 change in the content; nothing changes on screen"), "\(result.stdout)")
        #expect(result.stdout.contains("page: cmsVersion: 41 → 43"))
        #expect(!result.stdout.contains("screen:"))
    }

    // MARK: ContentDiff on its own

    private func diff(_ old: String, _ new: String) throws -> [ContentDiff.Line] {
        ContentDiff(old: try PageContent(bytes: Array(old.utf8)), new: try PageContent(bytes: Array(new.utf8))).lines
    }

    @Test func reorderedKeysAndWhitespaceAreNoChange() throws {
        let lines = try diff(
            #"{"floors":[{"type":"T","id":"a","header":{"title":"x","sticky":true},"items":[{"id":"i","p":1}]}]}"#,
            #"{ "floors" : [ {"items":[{"p":1,"id":"i"}],"id":"a","type":"T","header":{"sticky":true,"title":"x"}} ] }"#
        )
        #expect(lines.isEmpty, "\(lines)")
    }

    @Test func nestedFieldsAreNamedByTheirPath() throws {
        let lines = try diff(
            #"{"floors":[{"type":"T","id":"a","header":{"title":"x"},"items":[{"id":"i","jump":{"url":"app://1"}}]}]}"#,
            #"{"floors":[{"type":"T","id":"a","header":{"title":"y"},"items":[{"id":"i","jump":{"url":"app://2"}}]}]}"#)
        #expect(lines.map { $0.field } == ["header.title", "jump.url"])
        #expect(lines.map { $0.new } == [#""y""#, #""app://2""#])
    }

    @Test func stringsWithNULStayWholeAndIdsWithNULStayApart() throws {
        // A title cut at its NUL would be "a" before and after: no change. Ids cut there would both be "p".
        let lines = try diff(
            #"{"floors":[{"type":"T","id":"a","title":"a\u0000tail","items":[{"id":"p\u0000x","n":1}]}]}"#,
            #"{"floors":[{"type":"T","id":"a","title":"a\u0000other","items":[{"id":"p\u0000x","n":1},{"id":"p\u0000y","n":1}]}]}"#
        )
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.old == #""a\u0000tail""# && lines.first?.new == #""a\u0000other""#)
        #expect(lines.last?.change == .added && lines.last?.item == "p\u{0}y")
    }

    @Test func anItemWithoutAnIdIsKnownByItsContent() throws {
        let lines = try diff(
            #"{"floors":[{"type":"T","id":"a","items":[{"n":1},{"n":2}]}]}"#,
            #"{"floors":[{"type":"T","id":"a","items":[{"n":1},{"n":3}]}]}"#)
        #expect(lines.map { "\($0.change) \($0.item ?? "")" } == ["deleted items[1]", "added items[1]"])
    }
}
