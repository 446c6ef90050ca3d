import FloorLayout
import FloorRender
import FloorSession
import Foundation
import Testing

/// The text preview's lines written band by band (TextLineWriter), on a second thread or inline, each band's
/// cells recorded and drawn by the writer (CanvasRecording) or drawn at once, are the bytes one band for the
/// whole drawing, drawn at once and written on the drawing's thread, gives: on a page of many bands, with long
/// collection runs (a waterfall feed), rows taller than a band, sticky headers pinned over screens, the
/// gutter and styles.
struct TextLineWriterTests {
    let folder: TemporaryFolder
    let adapter: Adapter

    /// Examples/home.json's floors six times over (ids made unique, no next page), its waterfall feed each
    /// time with 60 products: about 3,500 lines.
    init() throws {
        folder = try TemporaryFolder("text-line-writer")
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        let home = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: Repo.path("Examples/home.json"))))
                as? [String: Any])
        let floors = try #require(home["floors"] as? [[String: Any]])
        var page: [[String: Any]] = []
        for copy in 0..<6 {
            for var floor in floors {
                floor["id"] = "\(floor["id"] ?? "floor")-\(copy)"
                if floor["layout"] as? String == "waterfall", let items = floor["items"] as? [[String: Any]] {
                    floor["items"] = (0..<60).map { i in
                        var item = items[i % items.count]
                        item["id"] = "p\(copy)-\(i)"
                        return item
                    }
                }
                page.append(floor)
            }
        }
        let json = try JSONSerialization.data(withJSONObject: ["title": "Long", "floors": page])
        let file = try folder.write("long.json", String(decoding: json, as: UTF8.self))
        adapter = try host.layout(page: file, width: 375, dispatch: .typed)
    }

    static let options = [
        TextRenderer.Options(),
        TextRenderer.Options(styled: true, gutter: true),
        TextRenderer.Options(columns: 40, gutter: true),
    ]

    /// One band as tall as the whole drawing, written inline: no hand-over at all.
    func wholePageInOneBand(_ options: TextRenderer.Options) -> [UInt8] {
        var out = TextOutput()
        let lines = Int(adapter.totalHeight / TextRenderer.pointsPerLine) + 2
        TextRenderer.write(adapter, options: options, writing: .inline, bandLines: lines, to: &out)
        return out.expanded
    }

    /// Frames held as calls and lone texts as bytes (TextGrid.holdsFrames), written from the bytes around them
    /// (TextLineWriter's `around`), are the bytes of every cell drawn at once: on a second thread and inline,
    /// recorded or not, plain, styled and with a gutter.
    @Test(arguments: options)
    func heldDrawingWritesWhatCellsWrite(options: TextRenderer.Options) throws {
        var cells = options
        cells.holdsFrames = false
        var reference = TextOutput()
        TextRenderer.write(adapter, options: cells, to: &reference)
        for writing in [TextLineWriter.Mode.secondThread, .inline] {
            for recorded in [true, false] {
                var out = TextOutput()
                TextRenderer.write(
                    adapter, options: options, writing: writing, bandLines: TextLineWriter.bandLines,
                    recorded: recorded, to: &out)
                #expect(
                    Self.firstDifference(out.expanded, reference.expanded) == nil, "\(writing), recorded \(recorded)")
            }
        }
    }

    @Test(arguments: options)
    func aWholePageWrittenOnASecondThreadIsTheSameBytes(options: TextRenderer.Options) throws {
        let reference = wholePageInOneBand(options)
        let lines = reference.count { $0 == 0x0A }
        #expect(lines > 3_000, "long enough for many bands: \(lines) lines")
        // 7 lines: most rows and every band of a collection's items taller than a band; 256: the default.
        for bandLines in [7, 64, TextLineWriter.bandLines] {
            for writing in [TextLineWriter.Mode.secondThread, .inline] {
                for recorded in [true, false] {
                    var out = TextOutput()
                    TextRenderer.write(
                        adapter, options: options, writing: writing, bandLines: bandLines, recorded: recorded, to: &out)
                    #expect(
                        Self.firstDifference(out.expanded, reference) == nil,
                        "\(writing), bands of \(bandLines) lines, recorded \(recorded)")
                }
            }
        }
        var out = TextOutput()
        TextRenderer.write(adapter, options: options, to: &out)
        #expect(Self.firstDifference(out.expanded, reference) == nil, "the whole page's default")
    }

    @Test func tallScreensWithPinnedHeadersAreTheSameBytes() throws {
        var pinned = 0
        // Screens of 300 lines down the page, a few scrolled into a waterfall with its header pinned.
        for offset in stride(from: 0.0, to: adapter.totalHeight, by: 1_111) {
            let viewport = Viewport(width: 375, height: 3_600, offset: offset)
            if adapter.pinnedHeader(in: viewport) != nil { pinned += 1 }
            for options in Self.options {
                var reference = TextOutput()
                TextRenderer.write(
                    adapter, viewport: viewport, options: options, writing: .inline, bandLines: 400, to: &reference)
                for bandLines in [7, 64] {
                    for writing in [TextLineWriter.Mode.secondThread, .inline] {
                        for recorded in [true, false] {
                            var out = TextOutput()
                            TextRenderer.write(
                                adapter, viewport: viewport, options: options, writing: writing, bandLines: bandLines,
                                recorded: recorded, to: &out)
                            #expect(
                                Self.firstDifference(out.expanded, reference.expanded) == nil,
                                "screen at \(offset), \(writing), bands of \(bandLines), recorded \(recorded)")
                        }
                    }
                }
            }
        }
        #expect(pinned >= 5, "screens with a pinned header: \(pinned)")
    }

    /// The first line where `a` and `b` differ, with both versions; nil when they are equal.
    static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String? {
        guard a != b else { return nil }
        let linesA = String(decoding: a, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let linesB = String(decoding: b, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let common = min(linesA.count, linesB.count)
        let i = (0..<common).first { linesA[$0] != linesB[$0] } ?? common
        return
            "line \(i) of \(linesA.count) vs \(linesB.count): \(i < linesA.count ? linesA[i] : "-") | \(i < linesB.count ? linesB[i] : "-")"
    }
}
