/// The rows every floor gets from its common fields: a header (title bar, maybe sticky) and margins.
enum CommonRows {
    /// Points above and below the header's title, and its inset from the left edge.
    static let headerPadding = 10.0, headerInset = 12.0
    /// The item index a margin row carries says which side it is.
    static let marginTop = 0
    static let marginBottom = 1

    static func header<Floor: FloorModel>(named name: String, of _: Floor.Type) -> RowKind {
        RowKind(
            name: name,
            // A section title in the headline style, one line: its height follows the font (on a host
            // before ABI 1.5, one 12-point cell line).
            height: { box, _, width in
                let title = unsafeDowncast(box, to: FloorBox<Floor>.self).common.header?.title ?? ""
                let line = TextMetrics.layout(
                    title, font: .headline, width: width - headerInset - 64, maxLines: 1)
                return 2 * headerPadding + line.height
            },
            cell: { box, _, canvas in
                guard let header = unsafeDowncast(box, to: FloorBox<Floor>.self).common.header else { return }
                // No "pinned" marker: a cell cannot know whether it is pinned; the host marks the header it
                // pins (a text preview draws "pinned" over it), and 64 points on the right stay free for that.
                canvas.textBlock(
                    header.title, x: headerInset, y: headerPadding, width: canvas.width - headerInset - 64,
                    maxLines: 1, font: .headline, style: .bold)
                canvas.box(x: 0, y: canvas.height - 1, width: canvas.width, height: 0)
            })
    }

    static func margin<Floor: FloorModel>(named name: String, of _: Floor.Type) -> RowKind {
        RowKind(
            name: name,
            height: { box, item, _ in
                guard let margin = unsafeDowncast(box, to: FloorBox<Floor>.self).common.margin else { return 0 }
                return item == marginTop ? margin.top : margin.bottom
            },
            cell: { _, _, _ in })
    }
}
