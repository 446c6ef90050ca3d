/// A text style of ABI 1.5 (docs/ABI.md, "Text styles"): the style number in bits 8-11 of a canvas style word
/// gives the size, the line height and the weight; `FLOOR_TEXT_BOLD` makes any of them bold. Style 0
/// (`FLOOR_TEXT_CELL`) is 1.4's cell metrics and has no `TypeStyle`: `TypeStyle(style:)` is nil for it.
public struct TypeStyle: Sendable, Equatable, Hashable {
    /// The weights the font set has (Fonts.lock): Noto Sans Regular and Bold. `semibold` (the headline's)
    /// is drawn with the Bold files, in the host and in the browser alike (the preview's @font-face maps
    /// weights 600-900 to them), since Debian's fonts-noto-core ships no SemiBold face.
    public enum Weight: Int, Sendable, Hashable {
        case regular = 400
        case semibold = 600
        case bold = 700

        /// Whether the Bold files draw it.
        public var usesBoldFace: Bool { self != .regular }
    }

    /// The style number (0x100 caption ... 0x500 title).
    public let number: UInt32
    /// The font size in points (CSS pixels in the preview).
    public let pointSize: Double
    /// The distance between two lines' tops, in points; a block is `lines` x this tall.
    public let lineHeight: Double
    public let weight: Weight

    /// Bits 8-11 of the style word (floor_abi/canvas.h FLOOR_TEXT_STYLE_MASK).
    public static let mask: UInt32 = 0xF00
    /// FLOOR_TEXT_BOLD.
    public static let boldBit: UInt32 = 0x1

    /// The style a style word names; nil for FLOOR_TEXT_CELL (0). An unknown number is the body style
    /// (docs/ABI-1.5.md, part 1).
    public init?(style: UInt32) {
        let number = style & Self.mask
        guard number != 0 else { return nil }
        let bold = style & Self.boldBit != 0
        switch number {
        case 0x100: self.init(number, 12, 16, bold ? .bold : .regular)
        case 0x200: self.init(number, 13, 18, bold ? .bold : .regular)
        case 0x400: self.init(number, 17, 22, bold ? .bold : .semibold)
        case 0x500: self.init(number, 20, 25, .bold)
        default: self.init(0x300, 15, 20, bold ? .bold : .regular)
        }
    }

    private init(_ number: UInt32, _ pointSize: Double, _ lineHeight: Double, _ weight: Weight) {
        self.number = number
        self.pointSize = pointSize
        self.lineHeight = lineHeight
        self.weight = weight
    }

    /// Every style, in the order of their numbers, regular weight.
    public static let all: [TypeStyle] = [0x100, 0x200, 0x300, 0x400, 0x500].map { TypeStyle(style: $0)! }

    /// The style's name as floor_abi/canvas.h spells it after FLOOR_TEXT_, lowercased ("caption" ... "title").
    public var name: String {
        switch number {
        case 0x100: "caption"
        case 0x200: "footnote"
        case 0x400: "headline"
        case 0x500: "title"
        default: "body"
        }
    }
}
