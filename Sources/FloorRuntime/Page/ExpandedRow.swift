/// One row as a floor's expand selector lists it, before it is measured: its index in the floor, its row
/// type's id and its FLOOR_ROW_* flags. What a page keeps of a floor it took over on reload (ReusableFloors)
/// and what the layout's row table is filled from.
public struct ExpandedRow: Sendable {
    package var index: UInt32
    package var type: Int32
    package var flags: UInt32

    public init(index: UInt32, type: Int32, flags: UInt32) {
        (self.index, self.type, self.flags) = (index, type, flags)
    }
}
