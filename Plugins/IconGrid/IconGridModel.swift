import FloorKit

/// An `IconGrid` floor's content, declared field by field: the decoder and the schema in one (FloorKit's
/// `Declared`). Only the decoding SDK is used here, so this file also builds for WebAssembly under
/// Embedded Swift (Scripts/wasm-decode); the rows are in IconGridFloor.swift.
struct IconGridFloor: Declared {
    struct Icon: Declared {
        var id: String
        var img: String
        var title: String
        var jump: Jump?

        init(_ f: Fields) throws(DecodeError) {
            id = try f.string("id", "The icon's id (in tap actions as iconId).")
            img = try f.string("img", "The icon image's URL, drawn 48 points square.")
            title = try f.string("title", "The label under the icon.", .nonEmpty)
            jump = try f.value("jump", "Where a tap on the icon goes.")
        }
    }

    var columns: Int
    var items: [Icon]

    init(_ f: Fields) throws(DecodeError) {
        // An icon that does not decode is left out with a warning naming its path; the others show.
        items = try f.list("items", "The icons, in order, filling lines of `columns`.", minItems: 1, dropping: true)
        columns = try f.integer("columns", "Icons on a line.", 1...10, default: 4)
    }
}
