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
}
