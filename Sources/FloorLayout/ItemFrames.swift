import CFloorABI
import HostContract

/// The item frames a row's cell reported the last time it was drawn (docs/ABI.md, "Item frames"), with the
/// width and the horizontal page they were drawn at: frames of another width or page are drawn again.
package struct DrawnFrames {
    package let width: Double
    package let page: Int
    /// By item, clipped to the cell; the last report of an item won.
    package let frames: [Int: ItemFrame]
}

/// A canvas that draws nothing: drawing a row into it only records its item frames.
private final class FrameProbe: CanvasBackend {
    func text(_ text: String, x: Double, y: Double, maxWidth: Double, style: UInt32) {}
    func image(_ source: String, x: Double, y: Double, width: Double, height: Double) {}
    func box(x: Double, y: Double, width: Double, height: Double) {}
    func fill(x: Double, y: Double, width: Double, height: Double, tone: UInt32) {}
    func textBlock(_ drawing: TextBlockDrawing) {}
}

extension Adapter {
    /// The width row `r`'s cell is drawn at: its column's for an item of a grid or a waterfall
    /// (FLOOR_ROW_ITEM), the page's otherwise. Item frames are points in that cell.
    package func cellWidth(ofRow r: Int) -> Double {
        rows[r].flags & FLOOR_ROW_ITEM != 0 ? itemWidths[Int(rows[r].section)] : width
    }

    /// Rows whose frames are kept at most: far more than a screen shows (about 20 rows on a phone, a few
    /// hundred in a tall terminal), so the rows on screen are always kept, while drawing every row of a
    /// 1,000,000-row page (`check` does) keeps no more than this. A whole-page text render keeps none.
    package static let framesRemembered = 4096

    /// Keeps the frames row `r`'s cell just reported (CanvasBackend.drawCell). Past `framesRemembered` rows
    /// every row's are forgotten first: the rows still on screen are drawn again when next asked.
    package func keepFrames(_ frames: [Int: ItemFrame], ofRow r: Int) {
        if drawnFrames.count >= Self.framesRemembered && drawnFrames[r] == nil {
            drawnFrames.removeAll(keepingCapacity: true)
        }
        drawnFrames[r] = DrawnFrames(width: width, page: page(ofRow: r), frames: frames)
    }

    /// The frames row `r`'s cell reports for its tappable items, in item order: those of the page it shows,
    /// at the current width; an item at or past `tappableItems(row:)` is not one. Empty when the cell
    /// reports none (1.4's rule then applies, `itemFrames(row:)`). Draws the cell (into a canvas that shows
    /// nothing) only when no front end drew it at this width and page since the rows last changed.
    public func reportedFrames(row r: Int) -> [ItemFrame] {
        let page = page(ofRow: r)
        if drawnFrames[r].map({ $0.width != width || $0.page != page }) ?? true {
            drawCell(row: r, into: FrameProbe())
        }
        guard let drawn = drawnFrames[r], !drawn.frames.isEmpty else { return [] }
        let count = tappableItems(row: r)
        return drawn.frames.values.filter { $0.item < count }.sorted { $0.item < $1.item }
    }

    /// Where each tappable item of row `r` is: the frames its cell reports, or, for a row that reports
    /// none, 1.4's rule: the cell's width (cellWidth) shared equally by its items, each the row's full height.
    public func itemFrames(row r: Int) -> [ItemFrame] {
        let reported = reportedFrames(row: r)
        guard reported.isEmpty else { return reported }
        let count = tappableItems(row: r)
        guard count > 0 else { return [] }
        let share = cellWidth(ofRow: r) / Double(count)
        return (0..<count).map {
            ItemFrame(item: $0, x: Double($0) * share, y: 0, width: share, height: rows[r].height)
        }
    }

    /// The tappable item of row `r` at (`x`, `y`), points from the row's top-left: the item whose reported
    /// frame holds the point (the last such item when frames overlap), nil where no frame does; for a row
    /// that reports no frames, 1.4's rule (`x` across the width, `y` not looked at).
    public func item(atX x: Double, y: Double, row r: Int) -> Int? {
        let reported = reportedFrames(row: r)
        if !reported.isEmpty {
            return reported.last { $0.contains(x: x, y: y) }?.item
        }
        let count = tappableItems(row: r)
        guard count > 0 else { return nil }
        guard count > 1, x.isFinite else { return 0 }
        return min(count - 1, max(0, Int(x / cellWidth(ofRow: r) * Double(count))))
    }
}
