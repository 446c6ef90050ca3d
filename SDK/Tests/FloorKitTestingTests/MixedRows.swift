import FloorKit

/// `MixedRows`: a floor whose rows are of several row types, interleaved and with items that do not follow
/// one another, to check that the SDK lists them as the model appended them (FloorRows keeps runs) and
/// answers each row type's taps. Each `cells` entry is "kind:item": a `tile` (tappable: `taps` things, counted
/// by the model), a `card` (an action and no `taps`: one thing), a `rule` (nothing to tap) or an `orphan` (a
/// row type the model does not list in `rowTypes`, so never registered: its rows are left out). A row is
/// `10 + item % 32` points high and draws "kind item", so a test reads back which item each row shows.
struct MixedRows: FloorModel {
    static let floorType = "MixedRows"
    static let rowTypes = [tile, card, rule]
    static let sampleJSON = #"{"type":"MixedRows","id":"m","cells":["tile:0","card:1"]}"#

    var cells: [String]

    func expand(into rows: inout FloorRows<MixedRows>) {
        for cell in cells {
            let parts = cell.split(separator: ":")
            let item = Int(parts[1]) ?? 0
            switch parts[0] {
            case "tile": rows.appendItem(Self.tile, item: item)
            case "card": rows.append(Self.card, item: item)
            case "sticky-card": rows.append(Self.card, item: item, sticky: true)
            case "rule": rows.append(Self.rule, item: item)
            default: rows.append(Self.orphan, item: item)
            }
        }
    }

    static func height(_ item: Int) -> Double { 10 + Double(item & 31) }

    static func row(_ name: String) -> RowType<MixedRows> {
        RowType<MixedRows>(
            name, height: { _, item, _ in height(item) },
            cell: { _, item, canvas in canvas.text("\(name) \(item)", x: 0, y: 0, maxWidth: canvas.width) })
    }

    /// Tappable: as many things as its item number, at most 3.
    static let tile = RowType<MixedRows>(
        "MixedTile", height: { _, item, _ in height(item) },
        cell: { _, item, canvas in canvas.text("MixedTile \(item)", x: 0, y: 0, maxWidth: canvas.width) },
        taps: { _, item in min(item, 3) },
        action: { _, item, tap in Action(url: "app://tile/\(item)/\(tap)") })
    static let card = RowType<MixedRows>(
        "MixedCard", height: { _, item, _ in height(item) },
        cell: { _, item, canvas in canvas.text("MixedCard \(item)", x: 0, y: 0, maxWidth: canvas.width) },
        action: { _, item, _ in Action(url: "app://card/\(item)") })
    static let rule = row("MixedRule")
    static let orphan = row("MixedOrphan")
}

let mixedPlugin = FloorPlugin(
    id: "com.floorkit.test.mixed", name: "Mixed rows (SDK tests)", version: "0.1.0", floors: [MixedRows.self])

func mixedPluginEntry() -> UnsafeRawPointer { mixedPlugin.descriptor }
