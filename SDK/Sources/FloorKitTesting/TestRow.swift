import CFloorABI

/// One row a floor listed (floor_row_sink_t.add): its index in the floor, its row type and its flags.
public struct TestRow: Equatable, CustomStringConvertible, Sendable {
    public let index: Int
    /// The row type's name ("CouponStripItem"; the SDK's title header is "FloorHeader").
    public let type: String
    /// FLOOR_ROW_HEADER: the floor's header row.
    public let isHeader: Bool
    /// FLOOR_ROW_STICKY: the row pins to the top of the screen once scrolled past.
    public let isSticky: Bool
    /// FLOOR_ROW_ITEM (ABI 1.5): an item of the floor's collection, placed into a column by the host.
    public let isItem: Bool

    init(index: Int, type: String, flags: UInt32) {
        self.index = index
        self.type = type
        isHeader = flags & FLOOR_ROW_HEADER != 0
        isSticky = flags & FLOOR_ROW_STICKY != 0
        isItem = flags & FLOOR_ROW_ITEM != 0
    }

    public var description: String {
        "row \(index) \(type)\(isHeader ? " header" : "")\(isSticky ? " sticky" : "")\(isItem ? " item" : "")"
    }
}
