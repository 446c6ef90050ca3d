import FloorCore
import FloorRuntime
import FloorSession
import Foundation
import Testing

// Messages that say what to do, each through the real floorhost binary where the message is the CLI's.
struct MessageTests {
    let folder: TemporaryFolder
    let plugins: String

    init() throws {
        folder = try TemporaryFolder("messages")
        plugins = try folder.installShippedPlugins()
    }

    @Test func aPluginFolderWithoutPluginsSaysSo() throws {
        let page = try folder.write("page.json", #"{"floors":[{"type":"Title","id":"t","title":"x"}]}"#)
        let empty = folder.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let result = try floorhost(["--plugins", empty, page])
        #expect(
            result.stderr.contains(
                "error: no plugins found in \(empty): it holds no plugin libraries (*.so, searched 4 folders deep), so no floor can be drawn; pass --plugins with the folder"
            ), "\(result.stderr)")
        let file = try folder.write("notes.txt", "not a plugin")
        let onFile = try floorhost(["--plugins", file, page])
        #expect(
            onFile.stderr.contains(
                "error: no plugins found in \(file): it is a file, not a folder of plugin libraries"),
            "\(onFile.stderr)")
        let check = try floorhost(["check", "--plugins", empty, page])
        #expect(check.status == 1, "check fails without plugins")
    }

    /// What a plugin says while its cells are drawn is told, in text and html as in a screen's view: the
    /// messages are gathered after the drawing (they were gathered before it, and such messages were lost).
    /// tiles.c's -DLOG_IN_CELL logs "tile T<index> drawn" from each tile's cell call.
    @Test func whatACellCallSaysIsTold() throws {
        let plugins = folder.file("logging")
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try compileCPlugin("tiles.c", to: plugins + "/libTilesFloor.so", defines: ["LOG_IN_CELL"])
        try folder.write("next.json", #"{"floors":[{"type":"Tiles","id":"n","heights":[30]}]}"#)
        for (name, tail) in [("alone.json", ""), ("first.json", #","next":"next.json""#)] {
            let page = try folder.write(
                name, #"{"floors":[{"type":"Tiles","id":"w","heights":[40,50,-1],"end":true}]\#(tail)}"#)
            for format in [["--format", "text"], ["--format", "html"], ["--viewport", "375x400"]] {
                let result = try floorhost(
                    ["--plugins", plugins, page, "--plugin-cache", folder.file("cache.json")] + format)
                #expect(result.status == 0, "\(format): \(result.stderr)")
                #expect(
                    result.stderr.contains("warning: com.example.tiles: tile T0 drawn")
                        && result.stderr.contains("tile T2 drawn"), "\(name) \(format): \(result.stderr)")
            }
        }
    }

    @Test func aFloorTypeTypoGetsASuggestion() throws {
        let page = try folder.write(
            "typo.json",
            #"{"floors":[{"type":"IconGird","id":"a","items":[]},{"type":"productfeed","id":"b","items":[]},{"type":"Banner","id":"c"}]}"#
        )
        let result = try floorhost(["--plugins", plugins, page])
        #expect(
            result.stderr.contains(
                "unknown floor type 'IconGird': no loaded plugin registers it (loaded: Focus, IconGrid, ProductFeed, Title); did you mean 'IconGrid'?"
            ), "\(result.stderr)")
        #expect(
            result.stderr.contains("unknown floor type 'productfeed'")
                && result.stderr.contains("did you mean 'ProductFeed'?"))
        let banner = result.stderr.split(separator: "\n").first { $0.contains("'Banner'") }
        #expect(banner.map { !$0.contains("did you mean") } == true, "nothing is near 'Banner'")
    }

    @Test func suggestionsAreNearAndCaseInsensitive() {
        let names = ["Focus", "IconGrid", "ProductFeed", "Title"]
        #expect(Suggestion.closest(to: "IconGird", among: names) == "IconGrid", "a swap of neighbours is one edit")
        #expect(Suggestion.closest(to: "productfeed", among: names) == "ProductFeed")
        #expect(Suggestion.closest(to: "Titel", among: names) == "Title")
        #expect(Suggestion.closest(to: "ProductFeeds", among: names) == "ProductFeed")
        #expect(Suggestion.closest(to: "Banner", among: names) == nil)
        #expect(Suggestion.closest(to: "Tit", among: names) == nil, "too far for a short name")
        #expect(Suggestion.closest(to: "", among: names) == nil)
        #expect(Suggestion.didYouMean("focus", among: names) == "; did you mean 'Focus'?")
    }

    @Test func valuesOfTheWrongFormSayTheFormExpected() throws {
        let page = Repo.path("Examples/home.json")
        let cases: [([String], String)] = [
            (
                ["--scroll-to", "-5"],
                "-5 is above the top of the page; expected 'end' or Y, a number of points from the top of the page, 0 or more (e.g. --scroll-to 2400)"
            ),
            (["--scroll-to", "bottom"], "expected 'end' or Y, a number of points"),
            (
                ["--viewport", "375"],
                "expected WIDTHxHEIGHT in points, e.g. --viewport 375x812 (an iPhone's screen); '375' has no height"
            ),
            (["--tap", "1"], "expected SECTION:ROW or SECTION:ROW:ITEM"),
            (["--gutter", "--format", "json"], "--gutter draws a margin in text output"),
        ]
        for (arguments, message) in cases {
            let result = try floorhost(["--plugins", plugins, page] + arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Missing value"), "\(arguments): \(result.stderr)")
        }
    }

    @Test func aTapOnARowOfANextPageHintsAtScrolling() throws {
        let page = Repo.path("Examples/home.json")
        let before = try floorhost(["--plugins", plugins, page, "--tap", "10:20"])
        #expect(before.status == 1)
        #expect(
            before.stderr.contains(
                "no action: no row 10:20 on the page (floor 'feed', section 10, has 14 rows); rows of next pages exist only once they are loaded: add --scroll-to end"
            ), "\(before.stderr)")
        let after = try floorhost(["--plugins", plugins, page, "--tap", "10:20", "--scroll-to", "end"])
        #expect(after.status == 0, "\(after.stderr)")
        let beyond = try floorhost(["--plugins", plugins, page, "--tap", "10:999", "--scroll-to", "end"])
        #expect(beyond.status == 1)
        #expect(!beyond.stderr.contains("--scroll-to end"), "every page is loaded: no hint: \(beyond.stderr)")
    }

    @Test func versionSaysTheHostAndTheABI() throws {
        let result = try floorhost(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "floorhost \(Version.host) (plugin ABI 1.5)\n")
    }

    @Test func checkWritesOneJSONObjectWithTheSameExitStatus() throws {
        let bad = try folder.write("bad.json", #"{"floors":[{"type":"IconGird","id":"a","items":[]}]}"#)
        let result = try floorhost(["check", "--plugins", plugins, bad, "--format", "json"])
        #expect(result.status == 1)
        let object = try jsonObject(result.stdout)
        let problems = try #require(object["problems"] as? [[String: Any]])
        #expect(problems.count == 1)
        #expect(problems[0]["level"] as? String == "error")
        #expect(
            (problems[0]["message"] as? String)?.hasSuffix("did you mean 'IconGrid'? (shown as a placeholder)") == true)
        #expect(problems[0]["file"] as? String == bad && problems[0]["path"] as? String == "floors[0]")
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["ok"] as? Bool == false && summary["problems"] as? Int == 1 && summary["pages"] as? Int == 1)
        #expect(object["pages"] as? [String] == [bad])

        let good = try floorhost(["check", "--plugins", plugins, Repo.path("Examples/home.json"), "--format", "json"])
        #expect(good.status == 0)
        let goodSummary = try #require(try jsonObject(good.stdout)["summary"] as? [String: Any])
        #expect(goodSummary["ok"] as? Bool == true && goodSummary["pages"] as? Int == 3)
        let text = try floorhost(["check", "--plugins", plugins, bad])
        #expect(text.status == result.status)
        #expect(text.stdout.hasSuffix("1 error in 1 page\n"))
    }

    @Test func theREADMEDocumentsExitStatus64() throws {
        let readme = try String(contentsOfFile: Repo.path("README.md"), encoding: .utf8)
        #expect(readme.contains("`64` a usage error"))
    }
}
