import Foundation
import Testing

/// Strings a page or plugin supplies reach every output whole (docs/ABI-1.5.md, part 5): a U+0000 inside
/// one is never a silent end of it.
@Suite struct StringLengthTests {
    /// ABI 1.5's jump_n and param_n carry lengths: a url, an event id, a key and a value holding U+0000 are
    /// tapped and printed whole (escaped), not cut at the NUL (`app://product/1`).
    @Test(arguments: [[], ["--no-plugin-isolation"]])
    func aJumpWithLengthsArrivesWhole(mode: [String]) throws {
        let folder = try TemporaryFolder()
        let plugins = folder.file("plugins")
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try compileCPlugin("tapper.c", to: plugins + "/libTapper.so", defines: ["JUMP_WITH_LENGTHS"])
        let page = try folder.write("p.json", #"{"floors":[{"type":"Tapper","id":"t","text":"hi"}]}"#)
        let result = try floorhost(["--plugins", plugins, page, "--tap", "0:0:1"] + mode)
        #expect(result.status == 0, "\(result.stderr)")
        let tap = try jsonObject(result.stdout)
        #expect(tap["url"] as? String == "app://product/1\u{0}javascript:evil", "\(result.stdout)")
        #expect(tap["eventId"] as? String == "tap\u{0}ev")
        #expect(tap["params"] as? [String: String] == ["k\u{0}x": "v\u{0}y"])
        #expect(result.stdout.contains(#""url":"app:\/\/product\/1\u0000javascript:evil""#))
    }

    /// A lone surrogate escape (`"\uD800"`) in a page string is an error naming its path and position, never
    /// a silent U+FFFD; a proper pair (an emoji written as two escapes) is not.
    @Test func aLoneSurrogateIsAnErrorWithItsPath() throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins(["Title", "IconGrid"])
        let page = try folder.write(
            "s.json",
            #"{"floors":[{"type":"Title","id":"t","title":"A\ud800B"},{"type":"Title","id":"u","title":"ok \ud83d\ude00"},{"type":"IconGrid","id":"g","items":[{"id":"i","img":"a.png","title":"x\udc00"}]}]}"#
        )
        let result = try floorhost(["check", "--plugins", plugins, page])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let why =
            "a \\u escape is half of a surrogate pair without the other half (U+D800 to U+DFFF stand only in pairs) (replaced by U+FFFD)"
        #expect(lines.contains("error: \(page):1:45: floors[0].title (floor 't'): \(why)"), "\(lines)")
        #expect(lines.contains("error: \(page):1:178: floors[2].items[0].title (floor 'g'): \(why)"), "\(lines)")
        #expect(lines.last == "2 errors in 1 page", "the pair is no problem: \(lines)")
    }

    /// A page whose strings hold U+0000: a title, a jump URL, and two floors whose ids (and item ids) differ
    /// only after it.
    static let pageWithNULs = #"""
        {"floors":[
          {"type":"Tapper","id":"p\u0000x","text":"a\u0000tail","url":"app://product/1\u0000javascript:evil","item":"p\u0000x"},
          {"type":"Tapper","id":"p\u0000y","text":"b","url":"app://product/2","item":"p\u0000y"},
          {"type":"Tapper","id":"plain","text":"fine","url":"app://product/3","item":"p3"}
        ]}
        """#

    /// The Tapper fixture built to draw and tap the page's strings (PAGE_STRINGS), as a 1.4 or a 1.5 plugin.
    private func tapper(abi14: Bool) throws -> (folder: TemporaryFolder, plugins: String, page: String) {
        let folder = try TemporaryFolder()
        let plugins = folder.file("plugins")
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try compileCPlugin(
            "tapper.c", to: plugins + "/libTapper.so",
            defines: ["PAGE_STRINGS"] + (abi14 ? ["ABI_1_4_STRUCTS", "ABI_MINOR=4"] : []))
        return (folder, plugins, try folder.write("nul.json", Self.pageWithNULs))
    }

    /// A 1.4 plugin takes strings NUL-terminated (canvas text, jump, param): it would draw "a", tap
    /// `app://product/1` and report both item ids as "p". Its floors whose strings hold U+0000 are not given
    /// to it: each such string is an error with its path, and the floor a placeholder; the rest renders.
    @Test func aStringWithNULNeverReachesA14Plugin() throws {
        let (folder, plugins, page) = try tapper(abi14: true)
        _ = folder
        let check = try floorhost(["check", "--plugins", plugins, page])
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        let lines = check.stdout.split(separator: "\n").map(String.init)
        let why =
            "holds U+0000, where plugin com.floorkit.test.tapper (ABI 1.4: strings end at U+0000) would cut it; the floor is not given to it (shown as a placeholder)"
        for path in [
            "floors[0].id", "floors[0].text", "floors[0].url", "floors[0].item", "floors[1].id", "floors[1].item",
        ] {
            let floor = path.hasPrefix("floors[0]") ? "p\\u0000x" : "p\\u0000y"
            #expect(
                lines.contains {
                    $0.hasPrefix("error: \(page):") && $0.hasSuffix(": \(path) (floor '\(floor)'): \(why)")
                }, "\(path): \(lines)")
        }
        #expect(lines.last == "6 errors in 1 page", "\(lines)")
        let render = try jsonObject(try floorhost(["--plugins", plugins, page, "--format", "json"]).stdout)
        let rows = try #require(render["rows"] as? [[String: Any]])
        #expect(rows.compactMap { $0["floor"] as? String } == ["p\u{0}x", "p\u{0}y", "plain"], "ids stay apart")
        #expect(rows.prefix(2).allSatisfy { $0["type"] as? String != "TapperRow" }, "placeholders: \(rows)")
        let tap = try jsonObject(try floorhost(["--plugins", plugins, page, "--tap", "2:0:0"]).stdout)
        #expect(tap["url"] as? String == "app://product/3")
    }

    /// A 1.5 plugin gets and gives every string whole (text_block, jump_n and param_n carry lengths): the
    /// title's tail is drawn, the URL tapped as written, and the two item ids stay two.
    @Test func a15PluginKeepsEveryStringWhole() throws {
        let (folder, plugins, page) = try tapper(abi14: false)
        _ = folder
        let check = try floorhost(["check", "--plugins", plugins, page])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let first = try jsonObject(try floorhost(["--plugins", plugins, page, "--tap", "0:0:0"]).stdout)
        #expect(first["url"] as? String == "app://product/1\u{0}javascript:evil")
        #expect(first["params"] as? [String: String] == ["itemId": "p\u{0}x"])
        let second = try jsonObject(try floorhost(["--plugins", plugins, page, "--tap", "1:0:0"]).stdout)
        #expect(second["params"] as? [String: String] == ["itemId": "p\u{0}y"])
        let text = try floorhost(["--plugins", plugins, page])
        #expect(text.stdout.contains(#"a\u0000tail"#), "\(text.stdout)")
    }

    /// The SDK's one-line `Canvas.text` (a header's title) takes a NUL-terminated string: it passes U+0000 as
    /// its visible escape, so the title's tail is drawn, not cut.
    @Test func theSDKsOneLineTextDrawsTheTail() throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins(["ProductFeed"])
        let page = try folder.write(
            "h.json",
            #"{"floors":[{"type":"ProductFeed","id":"f","header":{"title":"a\u0000tail"},"items":[{"id":"p","title":"T","price":"1","img":"i.svg"}]}]}"#
        )
        let text = try floorhost(["--plugins", plugins, page])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains(#"a\u0000tail"#), "\(text.stdout)")
    }
}
