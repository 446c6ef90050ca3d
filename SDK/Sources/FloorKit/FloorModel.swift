import CFloorABI

/// A floor type's model: decoded from the floor's JSON object, expanded into rows.
///
/// It decodes in one of two ways. `Declared` (the shipped floors and `Scripts/new-floor`'s): an
/// initializer that reads each field from `Fields`, which is both the decoder and the schema, and reads the
/// floor's bytes directly; its `Decodable` conformance is a stub the SDK never calls. Or only `Decodable`
/// (the slower path, kept for models written before it): decoded through Codable's containers, its schema
/// derived by probing `init(from:)` and refined by `schemaNotes`.
///
/// A floor is a table view's section (`numberOfRowsInSection:`, `cellForRowAtIndexPath:`): it
/// expands into rows, each row rendered by a `RowType`. The common fields `header` and `margin` are decoded
/// and expanded by the SDK, so a model lists only its own content rows.
public protocol FloorModel: Decodable {
    /// The page's `type` (or `pattern`) value this model decodes, e.g. "ProductFeed".
    static var floorType: String { get }
    /// Every row type `expand` may use. Registered with the host when the plugin loads.
    static var rowTypes: [RowType<Self>] { get }
    /// A floor object this type decodes; shipped in the descriptor for `floorhost conform`.
    static var sampleJSON: String { get }
    /// Lists the floor's content rows, in order. Called again after the model changes.
    func expand(into rows: inout FloorRows<Self>)
    /// Data checks before drawing (data checks before drawing): a floor with any problem is
    /// reported and left out of the page. Defaults to none.
    func validate() -> [FloorProblem]
    /// The floor object's JSON Schema: the model's own fields (the host adds type, pattern, id, header and
    /// margin). Shipped to the host (ABI 1.3 `schema_json`), which checks every floor against it and puts it
    /// into `floorhost schema`. Default: a `Declared` model's declaration; a `Decodable` model's
    /// conformance, probed and refined by `schemaNotes`.
    static var schema: JSONSchema { get }
    /// Descriptions and bounds for the derived schema, by field path ("columns", "items[].title").
    /// Default: none.
    static var schemaNotes: [String: SchemaNote] { get }
    /// The collection layouts the floor supports (ABI 1.5): which of list, grid and waterfall a page may
    /// choose with `layout`, and the defaults. Rows listed with `FloorRows.appendItem` are its items.
    /// Default: list only.
    static var layouts: CollectionLayouts { get }
    /// The model as each protocol the SDK handles it by, nil for one it does not conform to. The SDK's
    /// defaults answer these, chosen when the model is compiled: a model does not implement them. A cast
    /// (`as? any Declared.Type`) when the plugin loads would look each answer up at run time, and every such
    /// look-up scans every conformance record of every library loaded in the host, three times each floor
    /// type (BENCHMARKS.md, "A process's start, cheaper").
    static var asDeclared: (any Declared.Type)? { get }
    static var asExtendableFloor: (any ExtendableFloor.Type)? { get }
    static var asItemsFloor: (any ItemsFloor.Type)? { get }
}

extension FloorModel where Self: Declared {
    public static var schema: JSONSchema { JSONSchema.declared(Self.self) }
    public static var asDeclared: (any Declared.Type)? { Self.self }

    /// A declared model decodes through its declaration (FloorKind reads the floor's bytes with `Fields`);
    /// this stands in for Codable's initializer, which the model does not need.
    public init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(
            .init(
                codingPath: decoder.codingPath,
                debugDescription: "\(Self.self) decodes through its declaration (Declared)"))
    }
}

extension FloorModel {
    public static var schema: JSONSchema { JSONSchema.derived(from: Self.self, notes: schemaNotes) }
    public static var schemaNotes: [String: SchemaNote] { [:] }
    public static var layouts: CollectionLayouts { .listOnly }
    public static var asDeclared: (any Declared.Type)? { nil }
    public static var asExtendableFloor: (any ExtendableFloor.Type)? { nil }
    public static var asItemsFloor: (any ItemsFloor.Type)? { nil }
}

extension ExtendableFloor {
    public static var asExtendableFloor: (any ExtendableFloor.Type)? { Self.self }
}

extension ItemsFloor {
    public static var asItemsFloor: (any ItemsFloor.Type)? { Self.self }
}

/// The rows a floor expands into: each is a row type, the index of the item it shows, and whether it is
/// sticky.
///
/// Rows are kept as the host will see them (ListedRows: the host's id of the row type, the item, the flags),
/// and a row that continues the run being listed (a feed's next card) only counts: expanding 43,000 cards is
/// a compare and an add a card, not a row kept per card and its type looked up again afterwards.
public struct FloorRows<Floor: FloorModel> {
    private var listed: ListedRows
    /// The run being listed: `count` rows of `type` and `flags` drawing items `first`, `first + 1`...
    private var type: Int32 = 0
    private var flags: UInt32 = 0
    private var first = 0
    private var count = 0

    init(after leading: ListedRows = ListedRows()) { listed = leading }

    /// Appends a row that draws `item` (an index into the floor's own data) with `type`. A `sticky` row
    /// pins to the top of the screen once it scrolls above it, exactly as a sticky title header does: it
    /// stays while the rest of its floor scrolls under it, and the next sticky row (header or not, of this
    /// floor or a later one) pushes it up and takes over. The host sees FLOOR_ROW_STICKY on the row.
    public mutating func append(_ type: RowType<Floor>, item: Int = 0, sticky: Bool = false) {
        append(type, item, sticky ? FLOOR_ROW_STICKY : 0)
    }

    /// Appends a row that is an item of the floor's collection (FLOOR_ROW_ITEM, ABI 1.5): when the page lays
    /// the floor out as a grid or a waterfall (`layouts`), the host places it into a column and measures it
    /// at the column's width; as a list it is a full-width row like any other.
    public mutating func appendItem(_ type: RowType<Floor>, item: Int) {
        append(type, item, FLOOR_ROW_ITEM)
    }

    /// The rows listed, in order.
    var rows: ListedRows {
        mutating get {
            closeRun()
            return listed
        }
    }

    /// A row type the model did not list in `rowTypes` was never registered: its rows are left out rather
    /// than handed to the host with an id it cannot dispatch.
    private mutating func append(_ rowType: RowType<Floor>, _ item: Int, _ flags: UInt32) {
        guard let kind = rowType.registered else { return }
        let type = kind._withUnsafeGuaranteedRef(\.id)
        // An item outside Int32 is clamped (ListedRow): it starts a run of its own and nothing follows it.
        if count > 0, type == self.type, flags == self.flags, item == first &+ count, item < Int(Int32.max),
            item > Int(Int32.min)
        {
            count &+= 1
            return
        }
        closeRun()
        (self.type, self.flags, first, count) = (type, flags, item, 1)
    }

    private mutating func closeRun() {
        guard count > 0 else { return }
        listed.appendRun(type: type, flags: flags, firstItem: Int32(clamping: first), count: Int32(count))
        count = 0
    }
}
