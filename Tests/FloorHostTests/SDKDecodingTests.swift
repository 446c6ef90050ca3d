import Foundation
import Testing

/// The SDK decodes each floor's JSON with its own decoder (FloorKit/JSON), not Foundation's. These tests
/// drive it through the shipped ProductFeed plugin and read back what the cells drew.
struct SDKDecodingTests {
    let folder: TemporaryFolder
    let plugins: String

    init() throws {
        folder = try TemporaryFolder()
        plugins = try folder.installShippedPlugins(["ProductFeed"])
    }

    /// Renders one ProductFeed floor whose items are `items` (JSON text) and returns the json output.
    private func render(_ items: String, extra: String = "") throws -> [String: Any] {
        let page = try folder.write(
            "page.json", #"{"floors":[{"type":"ProductFeed","id":"f"\#(extra),"items":[\#(items)]}]}"#)
        let result = try floorhost(["--plugins", plugins, page, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try jsonObject(result.stdout)
    }

    private func texts(_ output: [String: Any]) -> [String] {
        let cells = output["cells"] as? [[String: Any]] ?? []
        return cells.flatMap { ($0["draws"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String } }
    }

    private func messages(_ output: [String: Any]) -> [String] {
        (output["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
    }

    @Test func stringsAreUnescapedExactly() throws {
        let output = try render(#"{"id":"a","title":"q\"b\\s\/中\u4e2d\ud83d\ude00 tab\tend","price":"¥1","img":"i"}"#)
        #expect(texts(output).contains("q\"b\\s/中中😀 tab\tend"))
    }

    @Test func aLoneSurrogateBecomesTheReplacementCharacter() throws {
        let output = try render(#"{"id":"a","title":"x\ud800y","price":"¥1","img":"i"}"#)
        #expect(texts(output).contains("x\u{FFFD}y"))
    }

    @Test func numbersInEveryJSONForm() throws {
        let items = ["1e2", "59.9", "-0", "0.125", "2E+1"].enumerated().map { i, price in
            #"{"id":"p\#(i)","title":"t\#(i)","price":\#(price),"img":"i"}"#
        }
        let prices = texts(try render(items.joined(separator: ","))).filter { $0.hasPrefix("¥") }
        #expect(prices == ["¥100.00", "¥59.90", "¥0.00", "¥0.13", "¥20.00"])
    }

    @Test func theLastOfDuplicateKeysWins() throws {
        let output = try render(#"{"id":"a","title":"first","title":"second","price":"¥1","img":"i"}"#)
        #expect(texts(output).contains("second"))
        #expect(!texts(output).contains("first"))
    }

    @Test func wrongTypesNameTheirPathAndWhatWasFound() throws {
        let cases: [(String, String, String)] = [
            (#""items":"none""#, "floors[0].items", "expected an array, found a string"),
            (
                #""items":[{"id":"a","title":["x"],"price":"¥1","img":"i"}]"#, "floors[0].items[0].title",
                "expected a string, found an array"
            ),
            (
                #""items":[{"id":"a","title":"t","price":true,"img":"i"}]"#, "floors[0].items[0].price",
                "expected a number or a numeric string, found bool"
            ),
            (#""items":[{"id":"a","title":"t","price":"¥1"}]"#, "floors[0].items[0].img", "required field is missing"),
            (
                #""items":[{"id":null,"title":"t","price":"¥1","img":"i"}]"#, "floors[0].items[0].id",
                "expected a string, found null"
            ),
            (#""items":[7]"#, "floors[0].items[0]", "expected an object, found number"),
            (
                #""header":{"title":"h","sticky":"yes"},"items":[]"#, "floors[0].header.sticky",
                "expected true or false, found a string"
            ),
        ]
        for (fields, path, message) in cases {
            let page = try folder.write("types.json", #"{"floors":[{"type":"ProductFeed","id":"f",\#(fields)}]}"#)
            let output = try jsonObject(try floorhost(["--plugins", plugins, page, "--format", "json"]).stdout)
            let diagnostics = output["diagnostics"] as? [[String: Any]] ?? []
            // A bad product is left out of the feed (DroppingBrokenItems); anything else refuses the floor.
            let said = path.hasPrefix("floors[0].items[") ? "\(message); item left out" : message
            #expect(
                diagnostics.contains {
                    $0["path"] as? String == path && ($0["message"] as? String)?.contains(": \(said) (plugin") == true
                },
                "\(fields): \(diagnostics.map { $0["message"] ?? "" })")
        }
    }

    @Test func nestingBeyondTheLimitIsRefusedNotCrashedOn() throws {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        let output = try render(#"{"id":"a","title":"t","price":"¥1","img":"i","extra":\#(deep)}"#)
        #expect(
            messages(output).contains {
                $0.contains("floors[0] (floor 'f'): The given data was not valid JSON: nested deeper than 256 levels")
            })
        #expect((output["rows"] as? [[String: Any]])?.first?["type"] as? String == "FloorPlaceholder")
    }
}
