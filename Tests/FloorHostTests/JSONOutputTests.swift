import FloorRender
import Foundation
import Testing

/// `--format json` written in chunks (JSONOutput): a page whose output is several chunks comes out whole and
/// in order, with or without plugin isolation, and an output that cannot be written stops at the first chunk
/// with one message.
struct JSONOutputTests {
    let folder: TemporaryFolder
    let plugins: String
    let page: String
    /// Products on the page: about 100 bytes of output a row, so several chunks.
    static let products = 12_000

    init() throws {
        folder = try TemporaryFolder("json-output")
        plugins = try folder.installShippedPlugins()
        let items = (0..<Self.products).map { i in
            #"{"id":"p\#(i)","title":"Product \#(i) with a name","price":\#(i + 1),"img":"p\#(i).jpg","jump":{"url":"app://p/\#(i)"}}"#
        }
        page = try folder.write(
            "feed.json",
            #"{"floors":[{"type":"ProductFeed","id":"feed","header":{"title":"For you"},"items":[\#(items.joined(separator: ","))]}]}"#
        )
    }

    @Test(arguments: [[], ["--no-plugin-isolation"]])
    func anOutputOfManyChunksComesOutWholeAndInOrder(mode: [String]) throws {
        let result = try floorhost(["--plugins", plugins, page, "--format", "json"] + mode)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.utf8.count > 3 * JSONOutput.chunkSize, "the page is meant to take several chunks")
        let output = try jsonObject(result.stdout)
        let rows = try #require(output["rows"] as? [[String: Any]])
        let cards = rows.filter { $0["type"] as? String == "ProductCard" }
        #expect(cards.count == Self.products)
        // The header is the floor's row 0, card i its row i + 1.
        #expect(cards.map { $0["row"] as? Int } == (1...Self.products).map { $0 }, "rows in page order")
        // Everything after the rows follows them (the chunks' order): the cells on screen and the stats.
        #expect((output["cells"] as? [Any])?.isEmpty == false)
        #expect((output["stats"] as? [String: Any])?["heightCalls"] as? Int ?? 0 >= Self.products)
    }

    @Test func aFullDiskStopsAtTheFirstChunkWithOneMessage() throws {
        let full = try run(
            "/bin/sh",
            [
                "-c", "exec \"$0\" \"$@\" > /dev/full", Repo.floorhostBinary, "--plugins", plugins, page, "--format",
                "json",
            ])
        #expect(full.status == 1)
        let messages = full.stderr.split(separator: "\n").filter { $0.contains("cannot write the output") }
        #expect(messages == ["error: cannot write the output: No space left on device"], "\(full.stderr)")
    }
}
