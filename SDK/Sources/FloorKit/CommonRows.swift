/// The rows every floor gets from its common fields: a header (title bar, maybe sticky) and margins.
enum CommonRows {
    static let headerHeight = 36.0
    /// The item index a margin row carries says which side it is.
    static let marginTop = 0
    static let marginBottom = 1

    static func header<Floor: FloorModel>(named name: String, of _: Floor.Type) -> RowKind {
        RowKind(
            name: name,
            height: { _, _, _ in headerHeight },
            cell: { box, _, canvas in
                guard let header = unsafeDowncast(box, to: FloorBox<Floor>.self).common.header else { return }
                // No "pinned" marker: a cell cannot know whether it is pinned; the host marks the header it
                // pins (a text preview draws "pinned" over it), and 64 points on the right stay free for that.
                canvas.text(header.title, x: 8, y: 12, maxWidth: canvas.width - 64, style: .bold)
                canvas.box(x: 0, y: canvas.height - 12, width: canvas.width, height: 0)
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
