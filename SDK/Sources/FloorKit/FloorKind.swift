import CFloorABI

/// A decoded floor, as the host holds it: the opaque model handle is an unmanaged reference to this box.
/// `rows[i]` is row i of the floor as `expand` last listed it: its host row type id and the item it draws.
class AnyFloorBox {
    /// Read on every height, cell and tappable call. Unchecked: plugins are called from one thread at a time
    /// (floor_abi.h), and only expand and extend, never inside another call, write it.
    @exclusivity(unchecked) var rows = ListedRows()
    /// Set by an extend that updated `rows` itself (an ItemsFloor's appended items): rows before this index
    /// are as the host last saw them, so the next expand may keep them (ABI 1.2) instead of listing them.
    var unchangedRows: Int?
    /// An ItemsFloor's item ids, built at its first extend and kept up to date by every later one, so that
    /// finding repeated ids costs O(items added), not O(items in the floor).
    var itemIDs: Set<String>?
    /// Items DroppingBrokenItems left out when this model was decoded (paths relative to the floor):
    /// reported as warnings by the floor type's validator, which the host calls right after decode.
    var leftOutItems: [FloorProblem] = []

    /// The item row `row` draws, nil for a row the floor did not list (the host's calls come row after row).
    func item(ofRow row: UInt64) -> Int? {
        guard row < UInt64(rows.count) else { return nil }
        return rows[Int(row)].item
    }
}

/// A row as `expand` listed it (kept in ListedRows, as runs of rows whose items follow one another).
struct ListedRow: Equatable {
    var type: Int32
    private var item32: Int32
    var flags: UInt32

    /// An item index is below the floor's byte count, itself below 2^31 (JSONTape).
    init(type: Int32, item: Int, flags: UInt32) {
        self.type = type
        item32 = Int32(clamping: item)
        self.flags = flags
    }

    var item: Int { Int(item32) }
}

final class FloorBox<Floor: FloorModel>: AnyFloorBox {
    let common: CommonFields
    /// The model, in a holder whose `floor` is a `let`, held by an unmanaged reference: a row type's call borrows
    /// it (`withFloor`), where a `var` of the box would be copied for each call, retaining every array and text the
    /// model holds (a ProductFeed card's height and cell: 4 reference counts each; BENCHMARKS.md, issue 23,
    /// "A floor borrowed for its row types' calls"). Replaced whole when the model changes (`modify`). Read on
    /// every height and cell call: unchecked as `rows` is (only decode and extend write it).
    @exclusivity(unchecked) private var held: Unmanaged<Held>

    private final class Held {
        let floor: Floor
        init(_ floor: Floor) { self.floor = floor }
    }

    init(common: CommonFields, floor: Floor) {
        self.common = common
        held = .passRetained(Held(floor))
    }

    deinit { held.release() }

    /// `body`'s answer for the model, borrowed for the call.
    @inline(__always)
    func withFloor<Result>(_ body: (Floor) -> Result) -> Result {
        held._withUnsafeGuaranteedRef { body($0.floor) }
    }

    /// A copy of the model.
    var floor: Floor { withFloor { $0 } }

    /// Changes the model: taken out of its holder, which is freed before `body` runs so that nothing else shares
    /// the model's arrays while they grow (a next page's items are appended in place), then held anew. `body`
    /// must not read this box.
    func modify<Result>(_ body: (inout Floor) -> Result) -> Result {
        var floor = held.takeUnretainedValue().floor
        held.release()
        defer { held = .passRetained(Held(floor)) }
        return body(&floor)
    }
}

/// One row type as registered with the host, type-erased so one set of C thunks serves every row type.
/// Its unmanaged reference is the row type's `context`.
final class RowKind {
    let name: String
    /// The host's id for this row type; -1 until registered (or when the host refused it).
    var id: Int32 = -1
    let height: (AnyFloorBox, Int, Double) -> Double
    let cell: (AnyFloorBox, Int, Canvas) -> Void
    let taps: ((AnyFloorBox, Int) -> Int)?
    let action: ((AnyFloorBox, Int, Int) -> Action?)?
    let pages: ((AnyFloorBox, Int) -> Int)?
    /// RowType.everyRowTaps: the tappable count of every row, answered without `taps`.
    let everyRowTaps: Int?

    init(
        name: String, height: @escaping (AnyFloorBox, Int, Double) -> Double,
        cell: @escaping (AnyFloorBox, Int, Canvas) -> Void,
        taps: ((AnyFloorBox, Int) -> Int)? = nil, action: ((AnyFloorBox, Int, Int) -> Action?)? = nil,
        pages: ((AnyFloorBox, Int) -> Int)? = nil, everyRowTaps: Int? = nil
    ) {
        self.name = name
        self.height = height
        self.cell = cell
        self.taps = taps
        self.action = action
        self.pages = pages
        self.everyRowTaps = everyRowTaps
    }
}

/// One floor type as registered with the host, type-erased. Its unmanaged reference is the floor type's
/// `context`. It owns the row kinds the floor expands into: the model's own plus the common header and
/// margin rows, which are named after the floor type ("ProductFeedHeader") so names stay unique.
final class FloorKind {
    let name: String
    let sampleJSON: String
    /// The model's schema as JSON text (FloorModel.schema), for `schema_json`.
    let schemaJSON: String
    /// Notes (FloorModel.schemaNotes) that name no field: logged as warnings when the plugin registers.
    let schemaProblems: [String]
    /// FloorModel.layouts, for floor_floor_type_t.layouts and the fields after it (ABI 1.5).
    let layouts: CollectionLayouts
    let rowKinds: [RowKind]
    let decode: (UnsafeRawBufferPointer) throws -> AnyFloorBox
    /// The floor's rows as the host is to see them: margin, header, the model's rows, margin.
    let expand: (AnyFloorBox) -> ListedRows
    let validate: (AnyFloorBox) -> [FloorProblem]
    /// Nil when the model is not an ExtendableFloor. Appends the second box's content to the first.
    let extend: ((AnyFloorBox, AnyFloorBox) -> [FloorProblem])?
    /// ItemsFloor only (used instead of `extend`): appends the second box's items whose ids are new, in
    /// O(items added). Returns what was dropped, and the rows of the appended items with the index in
    /// `rows` they go to (before the bottom margin), or nil rows when the floor does not list its items'
    /// rows alone (then the whole floor is expanded again).
    let appendItems: ((AnyFloorBox, AnyFloorBox) -> (dropped: [FloorProblem], rows: ListedRows?, at: Int))?

    init<Floor: FloorModel>(_ type: Floor.Type) {
        name = Floor.floorType
        sampleJSON = Floor.sampleJSON
        let schema = Floor.schema
        layouts = Floor.layouts
        schemaJSON = schema.json
        schemaProblems = Floor.schemaNotes.keys.sorted().filter { schema[path: $0] == nil }.map { path in
            "\(Floor.self).schemaNotes: '\(path)' names no field of the floor's schema (its fields: \(schema.properties.map(\.name).joined(separator: ", ")); a field inside an array's items is written 'items[].title'); the note is left out"
        }
        let header = CommonRows.header(named: Floor.floorType + "Header", of: Floor.self)
        let margin = CommonRows.margin(named: Floor.floorType + "Margin", of: Floor.self)
        /// `body`'s answer for the box's model, borrowed (FloorBox.withFloor).
        func with<Result>(_ box: AnyFloorBox, _ body: (Floor) -> Result) -> Result {
            unsafeDowncast(box, to: FloorBox<Floor>.self).withFloor(body)
        }
        let content = Floor.rowTypes.map { type in
            let kind = RowKind(
                name: type.name,
                height: { box, item, width in with(box) { type.height($0, item, width) } },
                cell: { box, item, canvas in with(box) { type.cell($0, item, canvas) } },
                taps: type.taps.map { taps in { box, item in with(box) { taps($0, item) } } },
                action: type.action.map { action in { box, item, tap in with(box) { action($0, item, tap) } } },
                pages: type.pages.map { pages in { box, item in with(box) { pages($0, item) } } },
                everyRowTaps: type.everyRowTaps)
            type.registered = Unmanaged.passUnretained(kind)
            return kind
        }
        rowKinds = [header, margin] + content
        if let declared = Floor.asDeclared {
            decode = Self.declaredDecode(declared, as: Floor.self)
        } else {
            decode = { bytes in
                let (decoded, leftOut) = try LeftOutItems.collecting {
                    try FloorJSON.decode(Decoded<Floor>.self, from: bytes)
                }
                let box = FloorBox(common: decoded.common, floor: decoded.floor)
                box.leftOutItems = leftOut
                return box
            }
        }
        validate = { box in with(box) { $0.validate() } }
        extend = Floor.asExtendableFloor.map { Extending.extend(for: $0) }
        appendItems = Floor.asItemsFloor.map { type in
            let append = Extending.appendItems(for: type)
            return { box, next in
                let (dropped, rows) = append(box, next)
                guard let rows, !box.rows.isEmpty else { return (dropped, nil, 0) }
                let bottom = (unsafeDowncast(box, to: FloorBox<Floor>.self).common.margin?.bottom ?? 0) > 0
                return (dropped, rows, box.rows.count - (bottom ? 1 : 0))
            }
        }
        expand = { box in
            let box = unsafeDowncast(box, to: FloorBox<Floor>.self)
            var leading = ListedRows()
            let spacing = box.common.margin
            if let spacing, spacing.top > 0 {
                leading.append(ListedRow(type: margin.id, item: CommonRows.marginTop, flags: 0))
            }
            if let title = box.common.header {
                leading.append(
                    ListedRow(type: header.id, item: 0, flags: FLOOR_ROW_HEADER | (title.sticky ? FLOOR_ROW_STICKY : 0))
                )
            }
            var rows = FloorRows<Floor>(after: leading)
            box.withFloor { $0.expand(into: &rows) }
            var listed = rows.rows
            if let spacing, spacing.bottom > 0 {
                listed.append(ListedRow(type: margin.id, item: CommonRows.marginBottom, flags: 0))
            }
            return listed
        }
    }
}

/// Why a floor's decode refused it: the path relative to the floor object and the sentence for the editor.
struct Refusal: Error {
    var path: String
    var message: String
}

extension FloorKind {
    /// The declared path: the common fields and the model read from one parse, straight off the tape.
    private static func declaredDecode<Floor: FloorModel>(_ declared: any Declared.Type, as _: Floor.Type)
        -> (UnsafeRawBufferPointer) throws -> AnyFloorBox
    {
        func open<Model: Declared>(_: Model.Type) -> (UnsafeRawBufferPointer) throws -> AnyFloorBox {
            precondition(Model.self == Floor.self)
            return { bytes in
                let outcome = DeclaredDecoding.decode(bytes) { f throws(DecodeError) in
                    (try CommonFields(f), try Model(f))
                }
                guard let (common, floor) = outcome.value else {
                    let error = outcome.error ?? DecodeProblem(path: "", message: "refused")
                    throw Refusal(path: error.path, message: error.message)
                }
                // Model is Floor (checked above), opened from the existential: no cast per floor.
                let box = FloorBox(common: common, floor: unsafeBitCast(floor, to: Floor.self))
                box.leftOutItems = outcome.leftOut.map { FloorProblem($0.path, $0.message) }
                return box
            }
        }
        return open(declared)
    }
}

/// Opens the ExtendableFloor existential so extension can be called on the concrete model type.
private enum Extending {
    /// Appends `next`'s items to an ItemsFloor box (ids kept in the box), and lists the appended items'
    /// rows when the floor can list them alone.
    static func appendItems<Floor: ItemsFloor>(for _: Floor.Type) -> (AnyFloorBox, AnyFloorBox) -> (
        [FloorProblem], ListedRows?
    ) {
        { box, next in
            let box = unsafeDowncast(box, to: FloorBox<Floor>.self)
            let incoming = unsafeDowncast(next, to: FloorBox<Floor>.self).withFloor { $0.items }
            var seen = box.itemIDs ?? box.withFloor { Set($0.items.lazy.map(\.id)) }
            box.itemIDs = nil  // uniquely referenced while it grows
            let first = box.withFloor { $0.items.count }
            let dropped = box.modify { $0.append(incoming, seen: &seen) }
            box.itemIDs = seen
            var rows = FloorRows<Floor>()
            guard box.withFloor({ $0.expand(items: first..<$0.items.count, into: &rows) }) else {
                return (dropped, nil)
            }
            return (dropped, rows.rows)
        }
    }

    static func extend<Floor: ExtendableFloor>(for _: Floor.Type) -> (AnyFloorBox, AnyFloorBox) -> [FloorProblem] {
        { box, next in
            let box = unsafeDowncast(box, to: FloorBox<Floor>.self)
            let next = unsafeDowncast(next, to: FloorBox<Floor>.self).floor
            return box.modify { $0.extend(with: next) }
        }
    }
}

/// Decodes the common fields and the plugin's model from one parse of the same floor object.
private struct Decoded<Floor: FloorModel>: Decodable {
    let common: CommonFields
    var floor: Floor
    init(from decoder: any Decoder) throws {
        common = try CommonFields(from: decoder)
        floor = try Floor(from: decoder)
    }
}
