import FloorLayout

/// The labels of the text preview's gutter (`--gutter`): row r is `section:row floor type`, with ` (plugin)`
/// after the type when another loaded plugin has a row type of that name, as UTF-8 the grid escapes (a
/// control character shows as its `\uXXXX`). Built a row at a time into one reused buffer from bytes kept
/// per section and per row type, so a page of any length builds no String a row.
struct GutterLabels {
    private let adapter: Adapter
    private var buffer: [UInt8] = []
    /// " floor", by section; " type (plugin)", by row type id.
    private var floors: [UInt32: [UInt8]] = [:]
    private var types: [Int32: [UInt8]] = [:]

    init(_ adapter: Adapter) { self.adapter = adapter }

    /// Adds row `r`'s label to `grid`'s glyphs (after its `startGlyphs`), its controls escaped.
    mutating func addGlyphs(row r: Int, to grid: inout TextGrid) {
        let row = adapter.row(r)
        buffer.removeAll(keepingCapacity: true)
        Self.appendDecimal(row.section, to: &buffer)
        buffer.append(UInt8(ascii: ":"))
        Self.appendDecimal(row.index, to: &buffer)
        if let floor = floors[row.section] {
            buffer.append(contentsOf: floor)
        } else {
            let floor = Array(" \(adapter.sections[Int(row.section)].floorID)".utf8)
            floors[row.section] = floor
            buffer.append(contentsOf: floor)
        }
        if let type = types[row.type] {
            buffer.append(contentsOf: type)
        } else {
            let registry = adapter.registry
            let plugin = registry.sharedRowTypePlugin(row.type).map { " (\($0))" } ?? ""
            let type = Array(" \(registry.rowTypes[Int(row.type)].name)\(plugin)".utf8)
            types[row.type] = type
            buffer.append(contentsOf: type)
        }
        buffer.withUnsafeBufferPointer { grid.addGlyphs(utf8: $0, escapingControls: true) }
    }

    static func appendDecimal(_ value: UInt32, to out: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &out) }
        out.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}
