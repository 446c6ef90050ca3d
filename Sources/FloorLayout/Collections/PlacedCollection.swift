import FloorRuntime

/// A collection floor as laid out: its layout, which items each column holds, and where placing stopped,
/// so that a next page's items continue from there (docs/ABI.md, "Collections"). Kept by the adapter per
/// section of a floor whose page chose a grid or a waterfall; RowTable.layOut fills it.
///
/// Memory: 4 bytes an item (its row within the floor, in one column's list) beside its row in the row
/// table (32 bytes), whose top, height and column (kept in the row's host-owned flag bits) are its frame.
package struct PlacedCollection: Sendable {
    package let layout: CollectionLayout
    /// Per column, the item rows placed into it (indices within the floor), in item order. Along one
    /// column tops and bottoms both increase, so the items at an offset are a binary search per column.
    package var columnRows: [[UInt32]]
    /// The placer after the floor's last item, and the row within the floor after that item: placing the
    /// floor again from that row on continues from here instead of from the floor's first item.
    package var resume: (placer: ColumnPlacer, row: Int)?

    package init(_ layout: CollectionLayout) {
        self.layout = layout
        columnRows = Array(repeating: [], count: layout.columns)
    }
}
