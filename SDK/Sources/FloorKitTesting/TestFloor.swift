import CFloorABI
import HostContract

/// A floor decoded by a FloorTestHost: its model (destroyed with this object, as floorhost destroys it)
/// and the rows expand listed. Each method makes the calls floorhost makes for that step and checks what
/// floor_abi.h asks of the answer, throwing a FloorTestFailure that names the selector when it breaks.
public final class TestFloor: @unchecked Sendable {
    public let host: FloorTestHost
    /// The floor type's name.
    public let type: String
    /// The rows, in order, as the last expand listed them.
    public private(set) var rows: [TestRow] = []
    /// Problems reported without refusing: a validator's that returned true (the SDK's
    /// @DroppingBrokenItems reports each item it left out this way) and items extend dropped.
    public private(set) var warnings: [ReportedProblem]

    private let floorType: RegisteredFloorType
    private let model: UnsafeMutableRawPointer
    private var rowTypeIDs: [Int32] = []

    /// Holding the lock; takes ownership of `model`.
    init(host: FloorTestHost, type: Int, model: UnsafeMutableRawPointer, warnings: [ReportedProblem]) throws {
        self.host = host
        floorType = host.floorTypes[type]
        self.type = floorType.name
        self.model = model
        self.warnings = warnings
        try expand()
    }

    deinit {
        let floorType = floorType
        let model = model
        FloorTestHost.calling { floorType.destroy.function(floorType.context, model) }
    }

    // MARK: Heights and drawing

    /// Row `row`'s height at `width` points. Throws when it is no height (not finite, or negative: floorhost
    /// shows the row as a placeholder, UnusableHeight) or above FLOOR_MAX_ROW_HEIGHT (floorhost clamps it),
    /// and reports the plugin either way, or when it is not the same on a second call (heights are cached,
    /// so a height calculator must be a pure function of its floor, row and width).
    public func height(row: Int, width: Double) throws -> Double {
        try FloorTestHost.calling {
            let rowType = try self.rowType(row)
            let first = rowType.height.function(rowType.context, model, UInt64(row), width)
            let again = rowType.height.function(rowType.context, model, UInt64(row), width)
            if let consequence = UnusableHeight.consequence(of: first) {
                throw FloorTestFailure(
                    "\(rowType.height.name) returned \(first) for row \(row) ('\(rowType.name)') at width \(DrawingText.number(width)); \(consequence)"
                )
            }
            guard first.bitPattern == again.bitPattern else {
                throw FloorTestFailure(
                    "\(rowType.height.name) returned \(first), then \(again) for row \(row) at width \(DrawingText.number(width)); floorhost caches heights, so the same row and width must give the same height"
                )
            }
            return first
        }
    }

    /// The floor's height at `width`: the sum of its rows'.
    public func height(width: Double) throws -> Double {
        try rows.indices.reduce(0) { try $0 + height(row: $1, width: width) }
    }

    /// What row `row`'s cell selector draws in a cell `width` points wide and as tall as its height there,
    /// showing horizontal page `page` (`canvas.page`). Throws when a call lies outside the cell (floorhost
    /// clips it; conform fails it), an item frame lies outside it or names an item at or past what `tappable`
    /// answers (docs/ABI.md, "Item frames"), the page is not one of the row's, or a second drawing differs
    /// from the first.
    public func draw(row: Int, width: Double, page: Int = 0) throws -> Drawing {
        let height = try height(row: row, width: width)
        let pages = try self.pages(row: row)
        let tappable = try tappableItems(row: row)
        return try FloorTestHost.calling {
            let rowType = try self.rowType(row)
            guard page >= 0, page < pages else {
                throw FloorTestFailure(
                    "row \(row) (\(rowType.name)) has \(pages) page\(pages == 1 ? "" : "s"); page \(page) is not one")
            }
            let draw = {
                RecordingCanvas.recording(width: width, height: height, page: page) {
                    rowType.cell.function(rowType.context, self.model, UInt64(row), $0)
                }
            }
            let recorder = draw()
            let operations = recorder.operations
            if let outside = operations.first(where: { !$0.isInside(width: width, height: height) }) {
                throw FloorTestFailure(
                    "\(rowType.cell.name) drew `\(DrawingText.line(outside))` outside its \(DrawingText.number(width)) x \(DrawingText.number(height)) cell (row \(row)); floorhost clips it and conform fails it"
                )
            }
            if let frame = recorder.itemFrames.first(where: { !$0.isInside(width: width, height: height) }) {
                throw FloorTestFailure(
                    "\(rowType.cell.name) reported the frame of \(frame) outside its \(DrawingText.number(width)) x \(DrawingText.number(height)) cell (row \(row)); floorhost clips it and conform fails it"
                )
            }
            if let frame = recorder.itemFrames.first(where: { $0.item >= tappable }) {
                throw FloorTestFailure(
                    "\(rowType.cell.name) reported the frame of \(frame) of row \(row), which has \(tappable) tappable item\(tappable == 1 ? "" : "s"); a frame names an item below what tappable answers"
                )
            }
            let again = draw()
            guard again.operations == operations, again.itemFrames == recorder.itemFrames else {
                throw FloorTestFailure(
                    "\(rowType.cell.name) drew row \(row) differently the second time at width \(DrawingText.number(width)); a cell must draw the same for the same row and width"
                )
            }
            var drawing = Drawing(width: width, height: height, operations: operations)
            drawing.page = page
            drawing.itemFrames = recorder.itemFrames
            return drawing
        }
    }

    /// How many horizontal pages row `row` shows (docs/ABI.md, "Paged rows"): 1 when its row type registers
    /// no pages selector or answers 0. Throws above FLOOR_PAGES_MAX (floorhost then does not page the row,
    /// with an error naming the plugin).
    public func pages(row: Int) throws -> Int {
        try FloorTestHost.calling {
            let rowType = try self.rowType(row)
            guard let pages = rowType.pages else { return 1 }
            let count = pages.function(rowType.context, model, UInt64(row))
            guard count <= UInt64(FLOOR_PAGES_MAX) else {
                throw FloorTestFailure(
                    "\(pages.name) answered \(count) pages for row \(row); at most \(FLOOR_PAGES_MAX) (FLOOR_PAGES_MAX), and floorhost does not page a row that answers more"
                )
            }
            return max(1, Int(count))
        }
    }

    /// Every row's drawing at `width`, in order.
    public func draw(width: Double) throws -> [Drawing] {
        try rows.indices.map { try draw(row: $0, width: width) }
    }

    /// The floor's drawing as `floorhost conform --snapshots` stores a sample's (at widths 320, 375 and
    /// 414, DrawingText.floor), calls made as conform makes them, so a test can compare it with a file
    /// under Snapshots/ or keep its own.
    public func snapshot(name: String? = nil) -> String {
        FloorTestHost.calling {
            let types = rowTypeIDs.map { host.rowTypes[Int($0)] }
            return DrawingText.floor(
                name: name ?? type, rowTypes: types.map(\.name),
                height: { row, width in
                    types[row].height.function(types[row].context, model, UInt64(row), width)
                },
                draw: { row, width, height in
                    RecordingCanvas.record(width: width, height: height) {
                        types[row].cell.function(types[row].context, self.model, UInt64(row), $0)
                    }
                })
        }
    }

    // MARK: Taps

    /// How many items of row `row` a tap can hit: 0 when its row type registers no tappable selector.
    /// Throws above FLOOR_TAPPABLE_MAX (floorhost then gives the row none, with a warning).
    public func tappableItems(row: Int) throws -> Int {
        try FloorTestHost.calling {
            let rowType = try self.rowType(row)
            guard let tappable = rowType.tappable else { return 0 }
            let count = tappable.function(rowType.context, model, UInt64(row))
            guard count <= UInt64(FLOOR_TAPPABLE_MAX) else {
                throw FloorTestFailure(
                    "\(tappable.name) answered \(count) items for row \(row); at most \(FLOOR_TAPPABLE_MAX) (FLOOR_TAPPABLE_MAX), and floorhost gives a row that answers more no tappable items"
                )
            }
            return Int(count)
        }
    }

    /// What a tap on item `item` of row `row` does, or nil when the action selector says it does nothing
    /// (returns false). Throws when the item is not one of the row's tappable items, or the selector used
    /// the action sink out of floor_abi.h's order (jump once with a url, then params), or returned true
    /// without a jump.
    public func tap(row: Int, item: Int) throws -> TestAction? {
        let count = try tappableItems(row: row)
        return try FloorTestHost.calling {
            let rowType = try self.rowType(row)
            guard item >= 0, item < count, let action = rowType.action else {
                throw FloorTestFailure(
                    "row \(row) (\(rowType.name)) has \(count) tappable item\(count == 1 ? "" : "s"); item \(item) is not one\(rowType.action == nil && count > 0 ? ", and its row type registers no action selector" : "")"
                )
            }
            let collector = ActionCollector()
            let returned = collector.withSink {
                action.function(
                    rowType.context, model, UInt64(row), UInt64(item),
                    $0.assumingMemoryBound(to: floor_action_sink_t.self))
            }
            guard collector.misuse.isEmpty else {
                throw FloorTestFailure(
                    "\(action.name) misused the action sink for item \(item) of row \(row): \(collector.misuse.joined(separator: "; ")); floor_abi.h: call jump once, with a url, then param (floorhost makes the tap do nothing)"
                )
            }
            guard returned else { return nil }
            guard let url = collector.url else {
                throw FloorTestFailure(
                    "\(action.name) returned true for item \(item) of row \(row) without calling jump; return false for an item that does nothing"
                )
            }
            return TestAction(url: url, eventId: collector.eventId, params: collector.params)
        }
    }

    // MARK: Next pages

    /// What extending a floor with a next page's copy did.
    public struct Extension: Equatable, Sendable {
        /// Rows the floor has now minus rows it had.
        public let addedRows: Int
        /// The extend result's claims (floor_extend_result_t): rows at the start and at the end of the old
        /// list that the new list keeps as they were, which floorhost does not measure again.
        public let unchangedLeading: Int
        public let unchangedTrailing: Int
        /// What extend reported: each duplicate item it dropped, with its path in the next page's floor.
        public let dropped: [ReportedProblem]
    }

    /// Continues this floor with `json`, a next page's floor of the same type (and id), as floorhost does:
    /// decodes it, calls extend, expands again (offering the unchanged leading rows to `keep`) and destroys
    /// the next model. Throws when the type has no extend selector, when the next floor does not decode,
    /// or when the result claims more unchanged rows than floor_abi.h allows or than really are unchanged
    /// (their types or their heights at 375 points changed).
    public func extend(with json: String) throws -> Extension {
        try FloorTestHost.calling {
            guard let extend = floorType.extend else {
                throw FloorTestFailure(
                    "floor type '\(type)' registers no extend selector: a next page's floor with the same id cannot continue it"
                )
            }
            let next = try host.decodeModel(json)
            defer { floorType.destroy.function(floorType.context, next.model) }
            guard host.floorTypes[next.type].name == type else {
                throw FloorTestFailure(
                    "the next page's floor is a '\(host.floorTypes[next.type].name)', not a '\(type)'; floorhost continues a floor only with one of its own type"
                )
            }
            let oldTypes = rowTypeIDs
            let oldHeights = try rows.indices.map { try height(row: $0, width: 375) }
            let report = DecodeReport()
            var result = floor_extend_result_t(unchanged_leading: 0, unchanged_trailing: 0)
            report.withReport { report in
                withUnsafeMutablePointer(to: &result) {
                    extend.function(
                        floorType.context, model, next.model, report.assumingMemoryBound(to: floor_report_t.self), $0)
                }
            }
            let dropped = [ReportedProblem](report.errors)
            try expand(reusable: Int(min(result.unchanged_leading, UInt64(oldTypes.count))))
            let leading = result.unchanged_leading
            let trailing = result.unchanged_trailing
            let limit = UInt64(min(oldTypes.count, rowTypeIDs.count))
            guard leading <= limit, trailing <= limit, leading + trailing <= limit else {
                throw FloorTestFailure(
                    "\(extend.name) claimed \(leading) leading and \(trailing) trailing unchanged rows, but the floor had \(oldTypes.count) rows and has \(rowTypeIDs.count); together they may not exceed the smaller count (floorhost measures the whole floor again and warns)"
                )
            }
            let kept =
                Array(0..<Int(leading)).map { ($0, $0) }
                + (0..<Int(trailing)).map { (oldTypes.count - 1 - $0, rowTypeIDs.count - 1 - $0) }
            for (old, new) in kept {
                guard oldTypes[old] == rowTypeIDs[new] else {
                    throw FloorTestFailure(
                        "\(extend.name) claimed old row \(old) unchanged, but it is now row \(new) of type '\(host.rowTypes[Int(rowTypeIDs[new])].name)', not '\(host.rowTypes[Int(oldTypes[old])].name)'"
                    )
                }
                let now = try height(row: new, width: 375)
                guard now.bitPattern == oldHeights[old].bitPattern else {
                    throw FloorTestFailure(
                        "\(extend.name) claimed old row \(old) unchanged, but its height at 375 points went from \(oldHeights[old]) to \(now) (it is row \(new) now); floorhost would keep the old height"
                    )
                }
            }
            warnings += dropped
            return Extension(
                addedRows: rowTypeIDs.count - oldTypes.count, unchangedLeading: Int(leading),
                unchangedTrailing: Int(trailing), dropped: dropped)
        }
    }

    // MARK: Rows

    private func rowType(_ row: Int) throws -> RegisteredRowType {
        guard rows.indices.contains(row) else {
            throw FloorTestFailure(
                "the floor has \(rows.count) row\(rows.count == 1 ? "" : "s"); row \(row) is not one of them")
        }
        return host.rowTypes[Int(rowTypeIDs[row])]
    }

    /// Lists the rows (floor_row_sink_t). Right after extend, the first `reusable` old rows are offered to
    /// `keep`, which may take them once, before any add. Holding the lock.
    private func expand(reusable: Int = 0) throws {
        let sink = RowSink(previous: Array(rowTypeIDs.prefix(reusable)))
        var raw = floor_row_sink_t()
        raw.host_data = Unmanaged.passUnretained(sink).toOpaque()
        raw.add = { sink, type, flags in
            guard let data = sink?.pointee.host_data else { return }
            let list = Unmanaged<RowSink>.fromOpaque(data).takeUnretainedValue()
            list.types.append(type)
            list.flags.append(flags)
        }
        if reusable > 0 {
            raw.reusable = UInt64(reusable)
            raw.keep = { sink, count in
                guard let data = sink?.pointee.host_data else { return }
                let list = Unmanaged<RowSink>.fromOpaque(data).takeUnretainedValue()
                guard list.types.isEmpty, !list.kept, count <= UInt64(list.previous.count) else {
                    list.misuse =
                        "keep(\(count)) called \(list.kept ? "twice" : !list.types.isEmpty ? "after add" : "with more than the \(list.previous.count) reusable rows")"
                    return
                }
                list.kept = true
                list.types = Array(list.previous.prefix(Int(count)))
                list.flags = Array(list.previousFlags.prefix(Int(count)))
            }
        }
        sink.previousFlags = rows.prefix(reusable).map {
            ($0.isHeader ? FLOOR_ROW_HEADER : 0) | ($0.isSticky ? FLOOR_ROW_STICKY : 0)
        }
        withUnsafePointer(to: &raw) { floorType.expand.function(floorType.context, model, $0) }
        if let misuse = sink.misuse {
            throw FloorTestFailure(
                "\(floorType.expand.name) \(misuse); floor_abi.h: keep once, before any add, at most `reusable` rows (floorhost ignores the call)"
            )
        }
        for (row, id) in sink.types.enumerated() where id < 0 || Int(id) >= host.rowTypes.count {
            throw FloorTestFailure(
                "\(floorType.expand.name) listed row \(row) with row type id \(id), which plugin \(host.pluginID) did not register (floorhost rejects the row)"
            )
        }
        rowTypeIDs = sink.types
        rows = zip(sink.types, sink.flags).enumerated().map {
            TestRow(index: $0.offset, type: host.rowTypes[Int($0.element.0)].name, flags: $0.element.1)
        }
    }

    private final class RowSink {
        var types: [Int32] = [], flags: [UInt32] = []
        let previous: [Int32]
        var previousFlags: [UInt32] = []
        var kept = false
        var misuse: String?
        init(previous: [Int32]) { self.previous = previous }
    }
}
