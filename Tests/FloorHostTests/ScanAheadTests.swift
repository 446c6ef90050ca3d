import FloorCore
import FloorRuntime
import FloorSession
import Foundation
import Testing

/// A page's scan runs on a thread of its own, ahead of the plugins' decoding (ScanAhead), and what the decoder
/// says is what it said when the whole page was scanned first: errors met after floors were decoded (and their
/// bytes handed back) keep their lines and columns, the page object's problems come first wherever they stand,
/// and a later `floors` array is the page's.
struct ScanAheadTests {
    /// PageHandBackTests' pretty-printed page (8 floors of 60 products), with `after` written after its
    /// `floors` array and `before` before it.
    static func page(before: String = "", after: String = "") -> [UInt8] {
        var text = String(decoding: PageHandBackTests.page(floors: 8, items: 60), as: UTF8.self)
        text = "{\n" + before + text.dropFirst(2)
        let end = text.range(of: "\n  ]\n}\n", options: .backwards)!
        text.replaceSubrange(end, with: "\n  ]" + after + "\n}\n")
        return Array(text.utf8)
    }

    /// Decodes `bytes` with their floors handed back as they go, and returns the PageError it throws.
    static func unusable(_ bytes: [UInt8], registry: Registry) -> PageError? {
        var handed = bytes
        handed.withUnsafeMutableBytes { _ in }
        do {
            _ = try PageDecoder.decode(bytes: handed, file: "p.json", registry: registry, handingBack: true)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        // after every floor: a member without its value, and a `next` of the wrong kind
        (",\n  \"next\": ", "", "expected a value"),
        (",\n  \"next\": 7", "", "'next' must be a string or null"),
        // before every floor: a `next` of the wrong kind, met before the floors are decoded
        ("", "  \"next\": [1],\n", "'next' must be a string or null"),
    ])
    func anErrorMetAfterFloorsWereDecodedIsWhereTheScanSaysItIs(after: String, before: String, message: String) throws {
        let folder = try TemporaryFolder("scanahead")
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins(["ProductFeed"]))
        let bytes = Self.page(before: before, after: after)
        let scanned: JSONSyntaxError
        do {
            _ = try PageScanner.scan(bytes)
            Issue.record("the page scans clean")
            return
        } catch {
            scanned = error
        }
        #expect(scanned.message.contains(message), "\(scanned.message)")
        // After the floors, or on the line before them (said once the floors after it are decoded).
        #expect(before.isEmpty ? scanned.line > 100 : scanned.line == 2, "line \(scanned.line)")
        let error = try #require(Self.unusable(bytes, registry: host.registry))
        #expect(error.reason == scanned.message)
        #expect(error.line == scanned.line)
        #expect(error.column == scanned.column)
        #expect(error.offset == scanned.offset)
    }

    @Test func thePageObjectsProblemsComeFirstWhereverTheyStand() throws {
        let folder = try TemporaryFolder("scanahead")
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins(["ProductFeed"]))
        let bytes = Self.page(
            before: "  \"colour\": \"red\",\n", after: ",\n  \"title\": 5,\n  \"shade\": \"blue\"")
        var handed = bytes
        handed.withUnsafeMutableBytes { _ in }
        let page = try PageDecoder.decode(bytes: handed, file: "p.json", registry: host.registry, handingBack: true)
        let messages = page.diagnostics.map(\.message)
        #expect(messages.count > 3, "\(messages)")
        #expect(messages[0].contains("colour"), "\(messages)")
        #expect(messages[1].contains("title") && messages[1].contains("must be a string"), "\(messages)")
        #expect(messages[2].contains("shade"), "\(messages)")
        #expect(messages.dropFirst(3).allSatisfy { $0.contains("floors[") }, "\(messages)")
        // Each at the line the scan alone gives it, though the floors between went before the last two.
        let positions = try #require(try? PageScanner.scan(bytes)).problems.map {
            SourcePosition.of([$0.offset], in: UnsafeRawBufferPointer(start: bytes, count: bytes.count))[$0.offset]
        }
        #expect(Array(page.diagnostics.prefix(3).map(\.position)) == positions)
        #expect(positions.allSatisfy { $0 != nil })
    }

    @Test func aLaterFloorsArrayIsThePages() throws {
        let folder = try TemporaryFolder("scanahead")
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins(["ProductFeed"]))
        // The first array has a floor of an unknown type and a product refused (PageHandBackTests.page); the
        // second, two floors of its own.
        let second = """
            ,
              "floors": [
                {"type": "ProductFeed", "id": "later1", "items": [{"id": "a", "title": "A", "price": 1, "img": "a.jpg"}]},
                {"type": "ProductFeed", "id": "later2", "items": [{"id": "b", "title": "B", "price": 2, "img": "b.jpg"}]}
              ]
            """
        for handingBack in [false, true] {
            var bytes = Self.page(after: second)
            bytes.withUnsafeMutableBytes { _ in }
            let page = try PageDecoder.decode(
                bytes: bytes, file: "p.json", registry: host.registry, handingBack: handingBack)
            #expect(page.sections.map(\.floorID) == ["later1", "later2"])
            let messages = page.diagnostics.map(\.message)
            #expect(messages.count == 1, "\(messages)")
            #expect(messages.first?.contains("duplicate key 'floors'") == true, "\(messages)")
        }
    }
}
