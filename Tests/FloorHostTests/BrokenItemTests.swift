import Foundation
import Testing

/// One bad item hides only itself (issue 12): a list decoded with the SDK's DroppingBrokenItems leaves out
/// an item that does not decode, with a warning naming its JSON path in the page, and the rest of the floor
/// renders. Driven through the shipped ProductFeed plugin, whose `items` are such a list.
struct BrokenItemTests {
    let folder: TemporaryFolder
    let plugins: String
    let page: String

    /// A title, then a feed of five products of which the fourth (items[3]) has a price that is `true`.
    init() throws {
        folder = try TemporaryFolder("broken-item")
        plugins = try folder.installShippedPlugins(["ProductFeed", "Title"])
        let products = (0..<5).map { index in
            #"{"id":"p\#(index)","title":"Product \#(index)","price":\#(index == 3 ? "true" : "\"¥\(index + 1)\""),"img":"https://img.example.com/\#(index).jpg"}"#
        }
        page = try folder.write(
            "page.json",
            #"{"floors":[{"type":"Title","id":"t","title":"今日推荐"},{"type":"ProductFeed","id":"feed","items":[\#(products.joined(separator: ","))]}]}"#
        )
    }

    static let warning =
        "floors[1].items[3].price (floor 'feed'): expected a number or a numeric string, found bool; item left out (plugin com.floorkit.floor.product-feed)"

    @Test func theOtherFourProductsRenderAndTheWarningNamesThePath() throws {
        let result = try floorhost(["--plugins", plugins, page, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let output = try jsonObject(result.stdout)
        let rows = try #require(output["rows"] as? [[String: Any]])
        #expect(
            rows.filter { $0["floor"] as? String == "feed" }.map { $0["type"] as? String }
                == Array(repeating: "ProductCard", count: 4))
        let cells = output["cells"] as? [[String: Any]] ?? []
        let texts = cells.flatMap { ($0["draws"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String } }
        #expect(["Product 0", "Product 1", "Product 2", "Product 4"].allSatisfy(texts.contains), "\(texts)")
        #expect(!texts.contains("Product 3"))
        let diagnostics = try #require(output["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 1, "\(diagnostics)")
        #expect(diagnostics.first?["level"] as? String == "error", "an item left out: the screen differs")
        #expect(diagnostics.first?["consequence"] as? String == "left out")
        #expect(diagnostics.first?["path"] as? String == "floors[1].items[3].price")
        #expect(
            (diagnostics.first?["message"] as? String)?.hasSuffix(Self.warning + " (left out)") == true,
            "\(diagnostics)")

        // The text output says it on stderr, once.
        let text = try floorhost(["--plugins", plugins, page])
        #expect(text.status == 0)
        #expect(text.stderr.hasPrefix("error: \(page):1:"), "\(text.stderr)")
        #expect(text.stderr.hasSuffix(": \(Self.warning) (left out)\n"), "\(text.stderr)")
    }

    @Test func checkReportsTheItemLeftOut() throws {
        let check = try floorhost(["check", "--plugins", plugins, page])
        #expect(check.status == 1, "\(check.stdout)")
        let lines = check.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasSuffix(": \(Self.warning) (left out)") }, "\(check.stdout)")
        #expect(lines.last == "1 error in 1 page")
    }

    /// The list itself must still be a list: that refuses the floor, as before.
    @Test func itemsThatAreNotAListStillRefuseTheFloor() throws {
        let bad = try folder.write("bad.json", #"{"floors":[{"type":"ProductFeed","id":"feed","items":{"p0":{}}}]}"#)
        let output = try jsonObject(try floorhost(["--plugins", plugins, bad, "--format", "json"]).stdout)
        let rows = try #require(output["rows"] as? [[String: Any]])
        #expect(rows.map { $0["type"] as? String } == ["FloorPlaceholder"])
        let messages = (output["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        #expect(
            messages.contains {
                $0.contains("floors[0].items (floor 'feed'): expected an array, found a dictionary (plugin")
            }, "\(messages)")
    }
}

/// IconGrid's icons are such a list too: a broken icon is left out, the grid keeps its other icons.
struct BrokenIconTests {
    @Test func aBrokenIconIsLeftOutOfTheGrid() throws {
        let folder = try TemporaryFolder("broken-icon")
        let plugins = try folder.installShippedPlugins(["IconGrid"])
        let icons = (0..<5).map {
            #"{"id":"i\#($0)","img":"https://img.example.com/\#($0).png","title":\#($0 == 1 ? "7" : "\"Icon \($0)\"")}"#
        }
        let page = try folder.write(
            "grid.json",
            #"{"floors":[{"type":"IconGrid","id":"grid","columns":4,"items":[\#(icons.joined(separator: ","))]}]}"#)
        let result = try floorhost(["--plugins", plugins, page, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let output = try jsonObject(result.stdout)
        // Four icons left: one line of four.
        #expect((output["rows"] as? [[String: Any]])?.count == 1)
        let diagnostics = output["diagnostics"] as? [[String: Any]] ?? []
        #expect(diagnostics.map { $0["path"] as? String } == ["floors[0].items[1].title"], "\(diagnostics)")
        #expect(
            (diagnostics.first?["message"] as? String)?.contains(
                "(floor 'grid'): expected a string, found number; item left out (plugin") == true, "\(diagnostics)")
    }
}
