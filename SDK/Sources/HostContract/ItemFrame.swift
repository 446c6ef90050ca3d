/// Where a tappable item is in its cell, as the cell reported it while drawing (`floor_canvas_t.item_frame`,
/// docs/ABI.md, "Item frames"): points from the cell's top-left corner. The host clips a frame to the cell;
/// the test kit and `conform` keep what the plugin said, so that a frame outside the cell can be named.
public struct ItemFrame: Sendable, Equatable, CustomStringConvertible {
    /// The tappable item, numbered as `tappable` and `action` number them (across every page of a paged row).
    public let item: Int
    public let x: Double
    public let y: Double
    public let width: Double
    public let height: Double

    public init(item: Int, x: Double, y: Double, width: Double, height: Double) {
        self.item = item
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var description: String { "item \(item) at (x: \(x), y: \(y), w: \(width), h: \(height))" }

    /// Whether the point is inside the frame (its left and top edges included, its right and bottom not).
    public func contains(x px: Double, y py: Double) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }

    /// The part of the frame inside a `width` x `height` cell, or nil when none is (or a coordinate is not
    /// finite): what the host keeps of a report.
    public func clipped(toWidth cellWidth: Double, height cellHeight: Double) -> ItemFrame? {
        guard x.isFinite, y.isFinite, width.isFinite, height.isFinite else { return nil }
        let left = max(0, x)
        let top = max(0, y)
        let right = min(cellWidth, x + width)
        let bottom = min(cellHeight, y + height)
        guard right > left, bottom > top else { return nil }
        return ItemFrame(item: item, x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Whether the frame lies within a `width` x `height` cell and is not empty (conform's check).
    public func isInside(width cellWidth: Double, height cellHeight: Double) -> Bool {
        let slack = 1e-6
        return x.isFinite && y.isFinite && width > 0 && height > 0 && x >= -slack && y >= -slack
            && x + width <= cellWidth + slack && y + height <= cellHeight + slack
    }
}
