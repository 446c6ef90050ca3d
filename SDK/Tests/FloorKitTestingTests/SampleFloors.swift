import FloorKit

// Test-only floor plugins written against FloorKit and linked into this test target, as a plugin
// package's tests link its plugin: FloorKitTesting loads each through its entry function in-process
// (FloorTestHost.load). They let the kit be tested in the SDK's own package; the root package's
// TestKitTests does the same with the shipped ProductFeed plugin and the C fixtures.

/// `NoteBoard`: a sticky strip (when `strip` is given), then a note per item; a note too wide for one
/// line takes two (the height measures through the host table, the cell through the canvas), and a note
/// with a jump is tappable. A next page's board appends its notes and drops repeated ids.
struct NoteBoard: ItemsFloor {
    static let floorType = "NoteBoard"
    static let rowTypes = [strip, note]
    static let sampleJSON =
        #"{"type":"NoteBoard","id":"board","header":{"title":"Notes","sticky":true},"strip":"Today","items":[{"id":"n1","text":"Buy milk","jump":{"url":"app://note/1","eventId":"note_tap"}},{"id":"n2","text":"Call 妈妈"}]}"#

    struct Note: Decodable, FloorItem {
        var id: String
        var text: String
        var jump: Jump?
    }

    var strip: String?
    @DroppingBrokenItems var items: [Note]

    func validate() -> [FloorProblem] {
        items.enumerated().filter { $0.element.text.isBlank }.map {
            FloorProblem("items[\($0.offset)].text", "is empty")
        }
    }

    func expand(into rows: inout FloorRows<NoteBoard>) {
        if strip != nil { rows.append(Self.strip, sticky: true) }
        _ = expand(items: items.indices, into: &rows)
    }

    func expand(items range: Range<Int>, into rows: inout FloorRows<NoteBoard>) -> Bool {
        for item in range { rows.append(Self.note, item: item) }
        return true
    }

    static let strip = RowType<NoteBoard>(
        "NoteBoardStrip",
        height: { _, _, _ in 24 },
        cell: { floor, _, canvas in
            canvas.text(floor.strip ?? "", x: 8, y: 4, maxWidth: canvas.width - 16, style: .bold)
        })

    /// 40 points for a note whose text fits in the width less 16 points of margins, else 52 (two lines).
    static let note = RowType<NoteBoard>(
        "NoteBoardNote",
        height: { floor, item, width in TextMetrics.width(of: floor.items[item].text) <= width - 16 ? 40 : 52 },
        cell: { floor, item, canvas in
            canvas.fill(x: 0, y: 0, width: canvas.width, height: canvas.height, tone: .subtle)
            canvas.text(floor.items[item].text, x: 8, y: 8, maxWidth: canvas.width - 16)
            canvas.box(x: 8, y: canvas.height - 1, width: canvas.width - 16, height: 0)
        },
        action: { floor, item, _ in
            let note = floor.items[item]
            return note.jump.map { Action($0, params: ["noteId": note.id]) }
        })
}

let notesPlugin = FloorPlugin(
    id: "com.floorkit.test.notes", name: "Notes (SDK tests)", version: "0.1.0",
    floors: [NoteBoard.self])

/// The notes plugin's `floor_plugin_entry` (a test target links no @_cdecl symbol; the kit takes any entry).
func notesPluginEntry() -> UnsafeRawPointer { notesPlugin.descriptor }

/// `Wonky`: rows that break the contract, which floorhost would clamp or report: a height that is not a
/// number, and a cell that draws outside itself.
struct Wonky: FloorModel {
    static let floorType = "Wonky"
    static let rowTypes = [notANumber, outside]
    static let sampleJSON = #"{"type":"Wonky","id":"w"}"#

    func expand(into rows: inout FloorRows<Wonky>) {
        rows.append(Self.notANumber)
        rows.append(Self.outside)
    }

    static let notANumber = RowType<Wonky>("WonkyNaN", height: { _, _, _ in .nan }, cell: { _, _, _ in })
    static let outside = RowType<Wonky>(
        "WonkyOutside", height: { _, _, _ in 20 },
        cell: { _, _, canvas in canvas.box(x: 0, y: 0, width: canvas.width + 10, height: 30) })
}

let wonkyPlugin = FloorPlugin(
    id: "com.floorkit.test.wonky", name: "Wonky (SDK tests)", version: "0.1.0", floors: [Wonky.self])

func wonkyPluginEntry() -> UnsafeRawPointer { wonkyPlugin.descriptor }

/// Two floor types whose row types share a name: floorhost keeps the first and refuses the second, and the
/// kit fails the load.
struct Twin: FloorModel {
    static let floorType = "Twin"
    static let rowTypes = [RowType<Twin>("TwinRow", height: { _, _, _ in 10 }, cell: { _, _, _ in })]
    static let sampleJSON = #"{"type":"Twin","id":"t"}"#
    func expand(into rows: inout FloorRows<Twin>) { rows.append(Self.rowTypes[0]) }
}

struct OtherTwin: FloorModel {
    static let floorType = "OtherTwin"
    static let rowTypes = [RowType<OtherTwin>("TwinRow", height: { _, _, _ in 10 }, cell: { _, _, _ in })]
    static let sampleJSON = #"{"type":"OtherTwin","id":"o"}"#
    func expand(into rows: inout FloorRows<OtherTwin>) { rows.append(Self.rowTypes[0]) }
}

let twinsPlugin = FloorPlugin(
    id: "com.floorkit.test.twins", name: "Twins (SDK tests)", version: "0.1.0",
    floors: [Twin.self, OtherTwin.self])

func twinsPluginEntry() -> UnsafeRawPointer { twinsPlugin.descriptor }
