import FloorLayout
import FloorRender
import FloorSession
import FloorText
import Foundation
import Testing

/// The text preview's bands recorded while their cells are drawn and drawn into their grids by the writer
/// (CanvasRecording) are the bytes the same cells drawn at once give: every example page through the shipped
/// plugins, collections in columns, rows taller than a band, a plugin whose strings are gone once its call
/// returns, and recordings large enough that the drawing draws them itself. (TextLineWriterTests runs its long
/// page and its screens with pinned headers both ways too.)
struct CanvasRecordingTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder("canvas-recording")
    }

    /// The whole page, its cells recorded or drawn at once, its lines written as `writing` says.
    static func text(
        _ adapter: Adapter, _ options: TextRenderer.Options, recorded: Bool,
        writing: TextLineWriter.Mode = .secondThread, bandLines: Int = TextLineWriter.bandLines
    ) -> [UInt8] {
        var out = TextOutput()
        TextRenderer.write(
            adapter, options: options, writing: writing, bandLines: bandLines, recorded: recorded, to: &out)
        return out.expanded
    }

    /// Recorded, on either writer and in bands of 7 lines (most rows taller than a band) or the default, against
    /// drawn at once.
    static func expectSameBytes(_ adapter: Adapter, _ name: String) {
        for options in TextLineWriterTests.options {
            let direct = text(adapter, options, recorded: false, writing: .inline)
            for writing in [TextLineWriter.Mode.secondThread, .inline] {
                for bandLines in [7, TextLineWriter.bandLines] {
                    let recorded = text(adapter, options, recorded: true, writing: writing, bandLines: bandLines)
                    #expect(
                        TextLineWriterTests.firstDifference(recorded, direct) == nil,
                        "\(name), \(options), \(writing), bands of \(bandLines)")
                }
            }
        }
    }

    @Test func everyExamplePageRecordedIsTheSameBytes() throws {
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        let examples = try FileManager.default.contentsOfDirectory(atPath: Repo.path("Examples"))
            .filter { $0.hasSuffix(".json") }.sorted()
        #expect(examples.count >= 3, "\(examples)")
        var types: Set<String> = []
        for example in examples {
            let adapter = try host.layout(page: Repo.path("Examples/" + example), width: 375, dispatch: .typed)
            for section in adapter.sections { types.insert(section.floorType) }
            Self.expectSameBytes(adapter, example)
        }
        // Every shipped floor kind is drawn by some example.
        #expect(types.isSuperset(of: ["Title", "IconGrid", "ProductFeed", "Focus"]), "\(types.sorted())")
    }

    /// tiles.c's labels come from a heap buffer the plugin overwrites with X's and frees as its call returns: a
    /// recording that kept the plugin's pointers would draw X's (or freed memory) where the labels are. Its text
    /// block (bold: the engine's) is laid out where the recording is drawn, from the recording's copy.
    @Test func aPluginsTextsFreedAfterItsCallAreDrawnAsTheyWere() throws {
        let adapter = try tilesPage(labelBytes: 16)
        let recorded = String(decoding: Self.text(adapter, .init(), recorded: true), as: UTF8.self)
        let direct = String(decoding: Self.text(adapter, .init(), recorded: false, writing: .inline), as: UTF8.self)
        for label in ["T0", "T1", "T59", "[T7", "[T41"] { #expect(recorded.contains(label), "\(label)") }
        #expect(!recorded.contains("XX"))
        // Each tile's label drawn by text, text_block, image and fitted_image: the block's line is there too.
        func lines(holding label: String, _ text: String) -> Int {
            text.split(separator: "\n").count { $0.contains(label) }
        }
        #expect(lines(holding: "T41", recorded) == lines(holding: "T41", direct) && lines(holding: "T41", direct) >= 9)
        Self.expectSameBytes(adapter, "tiles")
    }

    /// A whole page drawn as floorhost draws it (PageRender): the lines each title's height found kept
    /// (TextEngine.reuseMeasures) and taken as the title is recorded, on the drawing's thread in the cells'
    /// order, while the texts no height measured (prices) are laid out where the recordings are drawn, on the
    /// writer's thread or the drawing's, at once (bands of 7 lines: the writer is often behind, and the drawing
    /// draws a band itself while the writer lays out the bands before it). The same bytes as the page drawn at
    /// once with nothing kept, and the titles taken. (The shared engine's flag: a test running meanwhile only
    /// keeps and takes texts of its own, which changes no answer, MeasuredLines.)
    @Test func titlesTakenFromTheHeightsLinesWhileRecordingsAreDrawnOnAnotherThread() throws {
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        let page = Repo.path("Examples/home.json")
        let direct = Self.text(try host.layout(page: page, width: 375, dispatch: .typed), .init(), recorded: false)
        TextEngine.reuseMeasures(.keeping)
        defer { TextEngine.reuseMeasures(.off) }
        let adapter = try host.layout(page: page, width: 375, dispatch: .typed)
        TextEngine.reuseMeasures(.reusing)
        let before = TextEngine.shared.counts
        let recorded = Self.text(adapter, .init(), recorded: true, writing: .secondThread, bandLines: 7)
        let after = TextEngine.shared.counts
        #expect(TextLineWriterTests.firstDifference(recorded, direct) == nil)
        #expect(after.reused - before.reused >= 8, "\(before) -> \(after)")
    }

    /// Labels of 70,000 bytes: a band's recording passes CanvasRecording.flushBytes every 15 tiles or so, and
    /// the drawing draws what it holds into the band's grid itself, the writer the rest.
    @Test func recordingsTheDrawingDrawsItselfAreTheSameBytes() throws {
        let adapter = try tilesPage(labelBytes: 70_000)
        let direct = Self.text(adapter, .init(), recorded: false, writing: .inline)
        #expect(String(decoding: direct, as: UTF8.self).contains("T59"))
        Self.expectSameBytes(adapter, "tiles of long labels")
    }

    /// Tiles (tiles.c built with SCRATCH_LABELS) as a waterfall, a grid and a list of 60 tiles each, and two
    /// rows 6,000 points high (500 lines: taller than a band) between them.
    func tilesPage(labelBytes: Int) throws -> Adapter {
        let plugins = folder.file("plugins-\(labelBytes)")
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try compileCPlugin("tiles.c", to: plugins + "/libTilesFloor.so", defines: ["SCRATCH_LABELS=\(labelBytes)"])
        try compileCPlugin("heights.c", to: plugins + "/libTallFloor.so", defines: ["HEIGHT=6000"])
        let host = try FloorHost(pluginFolder: plugins)
        let heights = (0..<60).map { String(40 + ($0 * 37) % 90) }.joined(separator: ",")
        let floors = ["waterfall", "grid", "list"].enumerated().map { i, layout in
            #"{"type":"Tiles","id":"w\#(i)","layout":"\#(layout)","heights":[\#(heights)],"title":true,"end":true}"#
        }
        let page = try folder.write(
            "tiles-\(labelBytes).json",
            #"{"floors":[\#(floors[0]),{"type":"Tall","id":"t","rows":2},\#(floors[1]),\#(floors[2])]}"#)
        return try host.layout(page: page, width: 375, dispatch: .typed)
    }
}
