import CFloorABI
import FloorRender
import Testing

/// fitted_image reaches the text backend as the plugin's bytes (no String made a picture): a frame with the
/// source's base name in it, the same as the String path draws, for any bytes (U+0000, invalid UTF-8 as U+FFFD,
/// a source that names no file).
struct GridImageBytesTests {
    static let sources: [[UInt8]] = [
        Array("https://img.example.com/p/1.jpg".utf8), Array("a/".utf8), [], Array("x\u{0}y.png".utf8),
        [0x66, 0xFF, 0xC3, 0x2E, 0x6A], Array("图片/商品.webp".utf8),
    ]

    @Test(arguments: sources.indices) func bytesDrawWhatTheStringDraws(source: Int) {
        let bytes = Self.sources[source]
        let fromBytes = TextRenderer.GridBackend(TextGrid(columns: 30, lines: 5), pointsPerColumn: 5)
        bytes.withUnsafeBytes {
            fromBytes.image(utf8: $0, x: 5, y: 0, width: 120, height: 60, mode: FLOOR_IMAGE_FIT)
        }
        let fromString = TextRenderer.GridBackend(TextGrid(columns: 30, lines: 5), pointsPerColumn: 5)
        fromString.image(String(decoding: bytes, as: UTF8.self), x: 5, y: 0, width: 120, height: 60)
        #expect(fromBytes.grid.render() == fromString.grid.render())
        #expect(fromBytes.grid.render()[0].hasPrefix(" ┌"))
    }
}
