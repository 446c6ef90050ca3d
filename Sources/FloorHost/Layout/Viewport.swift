import CFloorABI

/// The part of the page a phone screen shows: `height` points starting `offset` points from the top.
public struct Viewport: Sendable, Equatable {
    public var width: Double
    public var height: Double
    public var offset: Double

    public init(width: Double = 375, height: Double = 812, offset: Double = 0) {
        self.width = width
        self.height = height
        self.offset = offset
    }
}

/// A sticky header pinned at the top of the viewport (the seed's TemplateSorbRenderProtocol).
public struct PinnedHeader: Sendable, Equatable {
    /// The header's row.
    public let row: Int
    public let floor: String
    /// Where it is drawn, relative to the viewport's top: 0, or negative while the next floor's sticky
    /// header pushes it up.
    public let y: Double
}

extension Adapter {
    /// The rows at least partly inside the viewport (a zero-height row counts when its top is inside).
    public func visibleRows(in viewport: Viewport) -> Range<Int> {
        let first = rows.firstRow(endingAfter: viewport.offset)
        let end = rows.rowsStarting(before: viewport.offset + viewport.height)
        return first < end ? first..<end : first..<first
    }

    /// The sticky header pinned at the viewport's top, if any: the floor whose row is at the top has a
    /// sticky header that has scrolled above the top. The next sticky header below pushes it up.
    public func pinnedHeader(in viewport: Viewport) -> PinnedHeader? {
        let visible = visibleRows(in: viewport)
        guard let top = visible.first else { return nil }
        let section = Int(rows[top].section)
        guard let header = stickyHeaderRow(ofSection: section), rows[header].top < viewport.offset else { return nil }
        let height = rows[header].height
        var y = 0.0
        if let next = ((section + 1)..<sections.count).lazy.compactMap(stickyHeaderRow(ofSection:)).first {
            y = min(0, rows[next].top - viewport.offset - height)
        }
        guard y > -height else { return nil }
        return PinnedHeader(row: header, floor: sections[section].floorID, y: y)
    }

    /// The section's header row when it is sticky.
    func stickyHeaderRow(ofSection section: Int) -> Int? {
        rows(ofSection: section).first { rows[$0].flags & FLOOR_ROW_HEADER != 0 }
            .flatMap { rows[$0].flags & FLOOR_ROW_STICKY != 0 ? $0 : nil }
    }
}
