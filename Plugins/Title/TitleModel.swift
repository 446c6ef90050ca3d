import FloorKit

/// A `Title` floor's content, declared field by field: the decoder and the schema in one (FloorKit's
/// `Declared`). Only the decoding SDK is used here, so this file also builds for WebAssembly under
/// Embedded Swift (Scripts/wasm-decode); the rows are in TitleFloor.swift.
struct TitleFloor: Declared {
    var title: String
    var subtitle: String?

    init(_ f: Fields) throws(DecodeError) {
        title = try f.string("title", "The bar's text: a centred headline, at most two lines.")
        subtitle = try f.string("subtitle", "Muted text under the title, at most two lines.")
    }
}
