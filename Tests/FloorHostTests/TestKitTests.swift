import FloorKitTesting
import Foundation
import HostContract
import ProductFeedFloor
import Testing

/// The plugin author's test kit (FloorKitTesting): a plugin linked into its own tests is decoded,
/// expanded, measured, drawn, tapped and extended through the ABI in-process, with floorhost's rules;
/// what floorhost would refuse or report is a thrown failure naming the selector. ProductFeed is linked in
/// as a plugin package links its own target; the C fixture contract.c is opened with dlopen, which is how
/// the kit serves a plugin written in C.
struct TestKitTests {
    static let card =
        #"{"type":"ProductFeed","id":"feed","items":[{"id":"p1","title":"无线蓝牙耳机 Pro","price":"¥199.00","originalPrice":"¥299.00","img":"https://img.example.com/p/1.jpg","jump":{"url":"app://product/1","eventId":"feed_click"}},{"id":"p2","title":"Bottle","price":59.9,"img":"b.jpg"}]}"#

    @Test func aLinkedPluginRegistersAndItsSampleDecodes() throws {
        let host = try FloorTestHost.load(floorPluginEntry)
        #expect(host.pluginID == "com.floorkit.floor.product-feed")
        #expect(host.floorTypeNames == ["ProductFeed"])
        #expect(host.rowTypeNames.contains("ProductCard"))
        #expect(try FloorTestHost.load(floorPluginEntry) === host, "a plugin is loaded once per process")
        let schema = try #require(host.schemaJSON(of: "ProductFeed"))
        #expect(schema.contains(#""items""#))
        let samples = try host.samples()
        #expect(samples.map(\.type) == ["ProductFeed"])
        // The sample's sticky title header comes first, then its sticky sort strip (a plugin's own sticky
        // row, not a header), then a card per item.
        let rows = samples[0].rows
        #expect(rows.first?.isHeader == true && rows.first?.isSticky == true)
        #expect(rows.dropFirst().map(\.type) == ["ProductSortStrip", "ProductCard", "ProductCard"])
        #expect(rows[1].isSticky && !rows[1].isHeader)
    }

    @Test func aFloorIsMeasuredDrawnAndTappedAsFloorhostWould() throws {
        let floor = try FloorTestHost.load(floorPluginEntry).decode(Self.card)
        #expect(floor.rows.map(\.type) == ["ProductCard", "ProductCard"])
        #expect(try floor.height(row: 1, width: 375) == 108)
        // The height follows the title's lines (TextMetrics.layout, through the kit's host table and the
        // host's text engine): a title too long for a narrow card takes a second body line, 20 points.
        let long = try FloorTestHost.load(floorPluginEntry).decode(
            #"{"type":"ProductFeed","id":"f","items":[{"id":"p","title":"A title long enough to need two lines on a narrow phone","price":1,"img":"x.jpg"}]}"#
        )
        #expect(try long.height(row: 0, width: 320) == 128)
        #expect(try long.height(row: 0, width: 2000) == 108)

        let drawing = try floor.draw(row: 0, width: 375)
        #expect(drawing.height == 108)
        #expect(drawing.images == ["https://img.example.com/p/1.jpg"])
        #expect(drawing.texts.contains("无线蓝牙耳机 Pro") && drawing.texts.contains("¥199.00"))
        #expect(
            drawing.lines.contains {
                $0.hasPrefix("text_block ") && $0.contains("footnote muted strike") && $0.hasSuffix(#""¥299.00""#)
            }, "\(drawing)")

        #expect(try floor.tappableItems(row: 0) == 1)
        let action = try #require(try floor.tap(row: 0, item: 0))
        #expect(action.url == "app://product/1" && action.eventId == "feed_click")
        #expect(action["productId"] == "p1" && action["position"] == "0")
        #expect(try floor.tap(row: 1, item: 0) == nil, "an item without a jump does nothing")
        #expect(throws: FloorTestFailure.self) { try floor.tap(row: 0, item: 1) }
        #expect(throws: FloorTestFailure.self) { try floor.height(row: 2, width: 375) }
    }

    @Test func decodingRefusalsAndDroppedItemsCarryTheirPaths() throws {
        let host = try FloorTestHost.load(floorPluginEntry)
        let refused = #expect(throws: FloorTestFailure.self) {
            try host.decode(#"{"type":"ProductFeed","id":"f","items":"none"}"#)
        }
        #expect(refused?.problems.first?.path == "items", "\(String(describing: refused))")
        // A blank title leaves its product out, with the path (ProductFeed's declaration: not blank).
        let blank = try host.decode(
            #"{"type":"ProductFeed","id":"f","items":[{"id":"p","title":" ","price":1,"img":"x.jpg"}]}"#)
        #expect(blank.warnings == [ReportedProblem(path: "items[0].title", message: "is empty; item left out")])
        let other = #expect(throws: FloorTestFailure.self) { try host.decode(#"{"type":"IconGrid","id":"g"}"#) }
        #expect(other?.description.contains("registers no floor type 'IconGrid'") == true)
        #expect(throws: FloorTestFailure.self) { try host.decode(#"{"type":"ProductFeed","id":"f","items":[],}"#) }
    }

    @Test func aNextPageExtendsTheFloorAndDropsDuplicates() throws {
        let floor = try FloorTestHost.load(floorPluginEntry).decode(Self.card)
        let next =
            #"{"type":"ProductFeed","id":"feed","items":[{"id":"p2","title":"Bottle again","price":1,"img":"b.jpg"},{"id":"p3","title":"Lamp","price":2,"img":"l.jpg"}]}"#
        let extended = try floor.extend(with: next)
        #expect(extended.addedRows == 1)
        #expect(extended.unchangedLeading == 2)
        #expect(extended.dropped.map(\.path) == ["items[0]"], "\(extended.dropped)")
        #expect(floor.rows.count == 3)
        #expect(try floor.draw(row: 2, width: 375).texts.contains("Lamp"))
    }

    @Test func theSnapshotIsTheOneConformKeeps() throws {
        let floor = try FloorTestHost.load(floorPluginEntry).decode(Self.card)
        let snapshot = floor.snapshot(name: "card")
        #expect(
            snapshot.hasPrefix(
                "# card: the canvas calls of each row at widths 320, 375 and 414 points\n\nwidth 320\n  row 0 ProductCard height 108\n"
            ))
        #expect(snapshot.contains("\nwidth 414\n"))
        // The same text as conform's snapshot of the plugin library with this floor as its extra sample.
        let folder = try TemporaryFolder("kit-snapshot")
        try FileManager.default.copyItem(
            atPath: Repo.buildDirectory + "/libProductFeedFloor.so", toPath: folder.file("libProductFeedFloor.so"))
        try folder.write(
            "libProductFeedFloor.samples.json",
            #"{"floors":["# + Self.card.replacingOccurrences(of: #""id":"feed""#, with: #""id":"card""#) + "]}")
        let record = try floorhost([
            "conform", folder.file("libProductFeedFloor.so"), "--include", "samples", "--snapshots",
            folder.file("Snapshots"), "--record",
        ])
        #expect(record.status == 0, "\(record.stdout)\(record.stderr)")
        let kept = try String(
            contentsOfFile: folder.file("Snapshots/com.floorkit.floor.product-feed/ProductFeed-card.txt"),
            encoding: .utf8)
        let renamed = try FloorTestHost.load(floorPluginEntry).decode(
            Self.card.replacingOccurrences(of: #""id":"feed""#, with: #""id":"card""#))
        #expect(renamed.snapshot(name: "ProductFeed-card") == kept)
    }

    // MARK: What floorhost refuses, the kit throws

    /// contract.c compiled with `defines`, opened, and loaded by the kit through its entry symbol.
    static func contractPlugin(_ folder: TemporaryFolder, _ defines: [String]) throws -> FloorTestHost {
        let library = folder.file("libContract-\(defines.joined(separator: "-")).so")
        try compileCPlugin("contract.c", to: library, defines: defines + ["PLUGIN_ID=\"com.floorkit.test.kit\""])
        let handle = try #require(dlopen(library, RTLD_NOW | RTLD_LOCAL), "\(String(cString: dlerror()))")
        let symbol = try #require(dlsym(handle, "floor_plugin_entry"))
        let entry = unsafeBitCast(symbol, to: (@convention(c) () -> UnsafeRawPointer).self)
        return try FloorTestHost.load { entry() }
    }

    static let contractFloor = #"{"type":"Contract","id":"c","text":"hello","rows":2}"#

    @Test func aCPluginWorksThroughTheKit() throws {
        let folder = try TemporaryFolder("kit-c")
        let floor = try Self.contractPlugin(folder, []).decode(Self.contractFloor)
        #expect(floor.rows.map(\.type) == ["ContractRow", "ContractRow"])
        #expect(try floor.draw(row: 1, width: 320).lines == [#"text x 0 y 0 max_width 320 "hello""#])
        #expect(
            try floor.tap(row: 0, item: 0)
                == TestAction(url: "floorkit://contract", params: [ActionParameter(key: "k", value: "v")]))
    }

    @Test(arguments: [
        (["DECODE_ERROR_WITH_MODEL"], "decode", "and still returned a model"),
        (["JUMP_TWICE"], "tap", "jump called more than once"),
        (["PARAM_BEFORE_JUMP"], "tap", "param called before jump"),
        (["JUMP_NULL"], "tap", "jump called with a NULL url"),
        (["TAPPABLE_UINT64_MAX"], "tap", "at most 4096 (FLOOR_TAPPABLE_MAX)"),
        (["EXTEND_CLAIM=9"], "extend", "claimed 9 leading and 0 trailing unchanged rows"),
    ])
    func aBrokenRuleIsAFailureNamingIt(defines: [String], step: String, says: String) throws {
        let folder = try TemporaryFolder("kit-broken")
        let host = try Self.contractPlugin(folder, defines)
        let failure = #expect(throws: FloorTestFailure.self) {
            let floor = try host.decode(Self.contractFloor)
            switch step {
            case "tap": _ = try floor.tap(row: 0, item: 0)
            case "extend": _ = try floor.extend(with: Self.contractFloor)
            default: break
            }
        }
        #expect(failure?.description.contains(says) == true, "\(String(describing: failure))")
    }

    @Test func aRefusedRegistrationFailsTheLoad() throws {
        let folder = try TemporaryFolder("kit-refused")
        let failure = #expect(throws: FloorTestFailure.self) {
            try Self.contractPlugin(folder, ["INIT_GIVES_UP_ON_REFUSAL"])
        }
        #expect(
            failure?.description.contains(#"has signature "i(ppQd)", but the slot's is "d(ppQd)""#) == true,
            "\(String(describing: failure))")
    }

    @Test(arguments: [
        // ABI 1.5's height rule, in floorhost's words (UnusableHeight): no height is a placeholder there.
        (
            "NAN_HEIGHT",
            "returned nan for row 0 ('BadgeRow') at width 375; a height is a finite number of points, 0 or more, and floorhost shows this row as a placeholder"
        ),
        (
            "NEGATIVE_HEIGHT",
            "returned -36.0 for row 0 ('BadgeRow') at width 375; a height is a finite number of points, 0 or more, and floorhost shows this row as a placeholder"
        ),
        ("NONDETERMINISTIC_HEIGHT", "the same row and width must give the same height"),
        ("DRAW_OUTSIDE", "outside its 375 x"),
    ])
    func badHeightsAndDrawingsAreFailures(define: String, says: String) throws {
        let folder = try TemporaryFolder("kit-badge")
        let library = folder.file("libBadge-\(define).so")
        try compileCPlugin(
            "badge.c", to: library, defines: [define, "PLUGIN_ID=\"com.floorkit.test.kit-\(define.lowercased())\""])
        let handle = try #require(dlopen(library, RTLD_NOW | RTLD_LOCAL))
        let entry = unsafeBitCast(
            try #require(dlsym(handle, "floor_plugin_entry")), to: (@convention(c) () -> UnsafeRawPointer).self)
        let floor = try FloorTestHost.load { entry() }.decode(#"{"type":"Badge","id":"b","text":"hi"}"#)
        let failure = #expect(throws: FloorTestFailure.self) { _ = try floor.draw(row: 0, width: 375) }
        #expect(failure?.description.contains(says) == true, "\(String(describing: failure))")
    }

    /// The kit records item frames and pages (docs/ABI.md, "Item frames", "Paged rows"): a product card's
    /// frame is the card above its rule; the kit refuses a page the row does not have.
    @Test func theKitRecordsItemFramesAndPages() throws {
        let floor = try FloorTestHost.load(floorPluginEntry).decode(Self.card)
        let drawing = try floor.draw(row: 1, width: 375)
        #expect(drawing.itemFrames == [ItemFrame(item: 0, x: 0, y: 0, width: 375, height: 96)])
        #expect(try floor.pages(row: 1) == 1)
        #expect(throws: FloorTestFailure.self) { try floor.draw(row: 1, width: 375, page: 1) }
    }
}
