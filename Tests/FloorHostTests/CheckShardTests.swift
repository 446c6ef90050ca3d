import FloorCheck
import Foundation
import Testing

/// `check --shard K/N` (a CI matrix or an indexed Job checks a large CMS across machines) and
/// `--format junit` (for CI systems that show test reports).
@Suite struct CheckShardTests {
    /// 24 first pages, every third with a chain of two next pages, and one that does not parse.
    func cms(in folder: TemporaryFolder) throws -> String {
        for i in 0..<24 {
            let floors = #"[{"type":"Title","id":"t\#(i)","title":"Page \#(i)"}]"#
            if i % 3 == 0 {
                try folder.write("cms/p\(i).json", #"{"floors":\#(floors),"next":"chains/p\#(i)-2.json"}"#)
                try folder.write("cms/chains/p\(i)-2.json", #"{"floors":\#(floors),"next":"p\#(i)-3.json"}"#)
                try folder.write("cms/chains/p\(i)-3.json", #"{"floors":\#(floors)}"#)
            } else {
                try folder.write("cms/p\(i).json", #"{"floors":\#(floors)}"#)
            }
        }
        try folder.write("cms/broken.json", #"{"floors": [}"#)
        return folder.file("cms")
    }

    @Test(arguments: [1, 2, 3, 5])
    func everyPageIsInExactlyOneShardWithItsChain(shards: Int) throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins(["Title"])
        let root = try cms(in: folder)
        let all = try floorhost(["check", "--plugins", plugins, root, "--format", "json"])
        let everyPage = Set(try #require(try jsonObject(all.stdout)["pages"] as? [String]))
        #expect(everyPage.count == 24 + 16 + 1)
        var seen: [String: Int] = [:]
        var failed: [Int] = []
        for k in 1...shards {
            let result = try floorhost([
                "check", "--plugins", plugins, root, "--shard", "\(k)/\(shards)", "--format", "json",
            ])
            let pages = try #require(try jsonObject(result.stdout)["pages"] as? [String])
            for page in pages {
                #expect(seen[page] == nil, "\(page) in shards \(seen[page] ?? 0) and \(k)")
                seen[page] = k
            }
            if result.status != 0 { failed.append(k) }
        }
        #expect(Set(seen.keys) == everyPage)
        // A next page goes with its first page.
        for i in stride(from: 0, to: 24, by: 3) {
            let head = seen["\(root)/p\(i).json"]
            #expect(seen["\(root)/chains/p\(i)-2.json"] == head && seen["\(root)/chains/p\(i)-3.json"] == head)
        }
        // Only the shard holding the broken page fails.
        #expect(failed == [seen["\(root)/broken.json"] ?? 0])
    }

    /// The share is a stable hash of the page's path relative to the folder given (FNV-1a 64), so every
    /// machine agrees whatever its directory order; a wrong K/N is refused with the form to use.
    @Test func theShareIsStableAndAWrongShardIsRefused() throws {
        #expect(CheckShard("2/8") == CheckShard("2/8") && CheckShard("2/8")?.index == 2)
        for wrong in ["0/3", "4/3", "3", "a/b", "1/0", "-1/2", ""] { #expect(CheckShard(wrong) == nil, "\(wrong)") }
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins(["Title"])
        let root = try cms(in: folder)
        // FNV-1a 64 of "p1.json" mod 4, + 1: computed independently (Python) as 3.
        let result = try floorhost(["check", "--plugins", plugins, root, "--shard", "3/4", "--format", "json"])
        let pages = try #require(try jsonObject(result.stdout)["pages"] as? [String])
        #expect(pages.contains("\(root)/p1.json"), "\(pages)")
        let refused = try floorhost(["check", "--plugins", plugins, root, "--shard", "5/4"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--shard takes K/N with 1 <= K <= N, e.g. 2/8"), "\(refused.stderr)")
    }

    @Test func junitHasATestCaseAPageAndAFailureAnError() throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins(["Title"])
        let page = try folder.write(
            "p.json",
            #"{"id":"cms-7","floors":[{"type":"Title","id":"t","title":"<T & \"x\">"},{"type":"Nope","id":"n"}]}"#)
        let result = try floorhost(["check", "--plugins", plugins, page, "--format", "junit"])
        #expect(result.status == 1)
        let xml = result.stdout
        #expect(xml.contains(#"<testsuite name="floorhost check" tests="1" failures="1">"#), "\(xml)")
        #expect(xml.contains(#"<testcase classname="check" name="\#(page)">"#), "\(xml)")
        #expect(
            xml.contains(
                #"<failure type="error" message="\#(page):1:73: floors[1] (floor &#39;n&#39;): unknown floor type"#),
            "\(xml)")
        #expect(!xml.contains(#"<failure type="warning""#), "a warning is not a failure without --strict")
        #expect(xml.contains("warning: \(page):1:2: id: unknown field of the page"), "\(xml)")
        let file = try folder.write("report.xml", xml)
        let parsed = try run(
            "/usr/bin/env", ["python3", "-c", "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])", file])
        #expect(parsed.status == 0, "well-formed XML: \(parsed.stderr)")
    }
}
