import FloorKitTesting
import HostContract
import Testing

/// The plugin author's test kit (FloorKitTesting) on the SDK's own test plugins (SampleFloors.swift),
/// linked in-process: a plugin registers and its sample decodes, a floor expands into rows (the SDK's
/// header and sticky rows), is measured, drawn, tapped and extended through the ABI, and what floorhost
/// would refuse is a thrown FloorTestFailure naming what broke.
struct TestKitTests {
    static let board =
        #"{"type":"NoteBoard","id":"b","strip":"Today","items":[{"id":"n1","text":"Buy milk","jump":{"url":"app://note/1","eventId":"note_tap"}},{"id":"n2","text":"Call mum"}]}"#

    @Test func aLinkedPluginRegistersAndItsSampleDecodes() throws {
        let host = try FloorTestHost.load(notesPluginEntry)
        #expect(
            host.pluginID == "com.floorkit.test.notes" && host.pluginName == "Notes (SDK tests)"
                && host.pluginVersion == "0.1.0")
        #expect(host.floorTypeNames == ["NoteBoard"])
        #expect(host.rowTypeNames.contains("NoteBoardStrip") && host.rowTypeNames.contains("NoteBoardNote"))
        #expect(try FloorTestHost.load(notesPluginEntry) === host, "a plugin is loaded once per process")
        // The schema the SDK derives from the model's Decodable conformance.
        let schema = try #require(host.schemaJSON(of: "NoteBoard"))
        #expect(schema.contains(#""items""#) && schema.contains(#""strip""#), "\(schema)")
        let samples = try host.samples()
        #expect(samples.map(\.type) == ["NoteBoard"])
        // The SDK's sticky title header comes first, then the floor's own sticky strip (not a header),
        // then a note per item.
        let rows = samples[0].rows
        #expect(rows.first?.isHeader == true && rows.first?.isSticky == true)
        #expect(rows.dropFirst().map(\.type) == ["NoteBoardStrip", "NoteBoardNote", "NoteBoardNote"])
        #expect(rows[1].isSticky && !rows[1].isHeader)
        #expect(rows.dropFirst(2).allSatisfy { !$0.isSticky && !$0.isHeader })
    }

    @Test func aFloorIsMeasuredDrawnAndTappedAsFloorhostWould() throws {
        let floor = try FloorTestHost.load(notesPluginEntry).decode(Self.board)
        #expect(floor.rows.map(\.type) == ["NoteBoardStrip", "NoteBoardNote", "NoteBoardNote"])
        #expect(floor.warnings.isEmpty)
        #expect(try floor.height(row: 0, width: 375) == 24)
        #expect(try floor.height(row: 1, width: 375) == 40)
        #expect(try floor.height(width: 375) == 104)
        // The height measures the text through the kit's host table (TextMetrics): "Buy milk" is 8 columns,
        // 40 points, which fits at 56 points (40 + 16 of margins) and not at 55.
        #expect(try floor.height(row: 1, width: 56) == 40)
        #expect(try floor.height(row: 1, width: 55) == 52)

        let drawing = try floor.draw(row: 1, width: 375)
        #expect(drawing.width == 375 && drawing.height == 40)
        #expect(drawing.texts == ["Buy milk"])
        #expect(drawing.images.isEmpty)
        #expect(
            drawing.lines == [
                "fill x 0 y 0 w 375 h 40 subtle", #"text x 8 y 8 max_width 359 "Buy milk""#,
                "box x 8 y 39 w 359 h 0",
            ], "\(drawing)")
        #expect(try floor.draw(row: 0, width: 320).lines == [#"text x 8 y 4 max_width 304 bold "Today""#])

        #expect(try floor.tappableItems(row: 1) == 1)
        #expect(try floor.tappableItems(row: 0) == 0, "the strip has no action")
        let action = try #require(try floor.tap(row: 1, item: 0))
        #expect(
            action
                == TestAction(
                    url: "app://note/1", eventId: "note_tap", params: [ActionParameter(key: "noteId", value: "n1")]))
        #expect(try floor.tap(row: 2, item: 0) == nil, "a note without a jump does nothing")
        #expect(throws: FloorTestFailure.self) { try floor.tap(row: 1, item: 1) }
        #expect(throws: FloorTestFailure.self) { try floor.height(row: 3, width: 375) }
    }

    @Test func decodingRefusalsAndDroppedItemsCarryTheirPaths() throws {
        let host = try FloorTestHost.load(notesPluginEntry)
        let refused = #expect(throws: FloorTestFailure.self) {
            try host.decode(#"{"type":"NoteBoard","id":"b","items":"none"}"#)
        }
        #expect(
            refused?.problems == [ReportedProblem(path: "items", message: "expected an array, found a string")],
            "\(String(describing: refused))")
        let blank = #expect(throws: FloorTestFailure.self) {
            try host.decode(#"{"type":"NoteBoard","id":"b","items":[{"id":"n","text":" "}]}"#)
        }
        #expect(
            blank?.problems == [ReportedProblem(path: "items[0].text", message: "is empty")],
            "\(String(describing: blank))")
        let other = #expect(throws: FloorTestFailure.self) { try host.decode(#"{"type":"ProductFeed","id":"f"}"#) }
        #expect(
            other?.description.contains("registers no floor type 'ProductFeed'") == true, "\(String(describing: other))"
        )
        #expect(throws: FloorTestFailure.self) { try host.decode(#"{"type":"NoteBoard","id":"b","items":[],}"#) }

        // A broken note is left out with a warning; the floor keeps the others.
        let floor = try host.decode(
            #"{"type":"NoteBoard","id":"b","items":[{"id":"n1","text":"a"},{"id":"n2","text":7},{"id":"n3","text":"c"}]}"#
        )
        #expect(floor.rows.count == 2)
        #expect(
            floor.warnings == [
                ReportedProblem(path: "items[1].text", message: "expected a string, found number; item left out")
            ], "\(floor.warnings)")
    }

    @Test func aNextPageExtendsTheFloorAndDropsDuplicates() throws {
        let floor = try FloorTestHost.load(notesPluginEntry).decode(Self.board)
        let next =
            #"{"type":"NoteBoard","id":"b","items":[{"id":"n2","text":"Call mum again"},{"id":"n3","text":"Water plants"}]}"#
        let extended = try floor.extend(with: next)
        #expect(extended.addedRows == 1)
        #expect(extended.unchangedLeading == 3, "the strip and both notes are kept")
        #expect(
            extended.dropped == [ReportedProblem(path: "items[0]", message: "duplicate item id 'n2' dropped")],
            "\(extended.dropped)")
        #expect(floor.rows.map(\.type) == ["NoteBoardStrip", "NoteBoardNote", "NoteBoardNote", "NoteBoardNote"])
        #expect(try floor.draw(row: 3, width: 375).texts == ["Water plants"])
        #expect(try floor.draw(row: 2, width: 375).texts == ["Call mum"], "the first copy of n2 stays")
    }

    @Test func theSnapshotListsEachRowsCallsAtThePhoneWidths() throws {
        let floor = try FloorTestHost.load(notesPluginEntry).decode(Self.board)
        let snapshot = floor.snapshot(name: "board")
        #expect(
            snapshot.hasPrefix(
                "# board: the canvas calls of each row at widths 320, 375 and 414 points\n\nwidth 320\n  row 0 NoteBoardStrip height 24\n"
            ), "\(snapshot)")
        #expect(snapshot.contains("\nwidth 375\n") && snapshot.contains("\nwidth 414\n"))
        #expect(floor.snapshot(name: "board") == snapshot, "the same floor gives the same text")
    }

    // MARK: What floorhost refuses, the kit throws

    @Test func badHeightsAndDrawingsAreFailures() throws {
        let floor = try FloorTestHost.load(wonkyPluginEntry).decode(#"{"type":"Wonky","id":"w"}"#)
        let height = #expect(throws: FloorTestFailure.self) { try floor.height(row: 0, width: 375) }
        // ABI 1.5's height rule, in floorhost's words: a height that is no height is a placeholder there.
        #expect(
            height?.description.contains(
                "returned nan for row 0 ('WonkyNaN') at width 375; a height is a finite number of points, 0 or more, and floorhost shows this row as a placeholder"
            ) == true, "\(String(describing: height))")
        let drawing = #expect(throws: FloorTestFailure.self) { _ = try floor.draw(row: 1, width: 375) }
        #expect(drawing?.description.contains("outside its 375 x") == true, "\(String(describing: drawing))")
    }

    @Test func aRefusedRegistrationFailsTheLoad() throws {
        let failure = #expect(throws: FloorTestFailure.self) { try FloorTestHost.load(twinsPluginEntry) }
        #expect(
            failure?.description.contains("row type 'TwinRow': the row type 'TwinRow' is registered twice") == true,
            "\(String(describing: failure))")
        let again = #expect(throws: FloorTestFailure.self) { try FloorTestHost.load(twinsPluginEntry) }
        #expect(again?.description == failure?.description, "a failed load fails the same way again")
    }
}
