import FloorKit

/// A `Focus` floor's content, declared field by field: the decoder and the schema in one (FloorKit's
/// `Declared`). Only the decoding SDK is used here, so this file also builds for WebAssembly under
/// Embedded Swift (Scripts/wasm-decode); the carousel row is in FocusFloor.swift.
struct FocusFloor: Declared {
    struct Banner: Declared {
        var id: String
        var img: String
        var title: String?
        var jump: Jump?

        init(_ f: Fields) throws(DecodeError) {
            id = try f.string("id", "The banner's id (in tap actions as bannerId).")
            img = try f.string("img", "The banner image's URL; 5:2, as wide as the page.", .nonEmpty)
            title = try f.string("title", "Text over the banner's lower edge.")
            jump = try f.value("jump", "Where a tap on the banner goes.")
        }
    }

    var items: [Banner]

    init(_ f: Fields) throws(DecodeError) {
        items = try f.list(
            "items", "The banners, in order; the carousel pages through them, one a page (at most 64).",
            minItems: 1)
    }
}
