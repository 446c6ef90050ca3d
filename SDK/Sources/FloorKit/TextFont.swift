import CFloorABI

/// A text style of ABI 1.5 (floor_abi/canvas.h FLOOR_TEXT_CAPTION ... FLOOR_TEXT_TITLE; docs/ABI.md,
/// "Text styles"): real type the host measures with its font set, in the iOS manner. `.cell` is 1.4's cell
/// metrics (5 points a character, 12-point lines), what every plugin built before 1.5 draws in.
public enum TextFont: UInt32, Sendable, CaseIterable {
    case cell = 0
    /// 12 pt on a 16-point line: badges, small print.
    case caption = 0x100
    /// 13 pt on an 18-point line: product titles in a dense grid.
    case footnote = 0x200
    /// 15 pt on a 20-point line: running text, product titles.
    case body = 0x300
    /// 17 pt semibold on a 22-point line: section titles, prices.
    case headline = 0x400
    /// 20 pt bold on a 25-point line: page and floor titles.
    case title = 0x500

    /// The distance between two lines' tops, in points: a block of n lines is n x this tall.
    public var lineHeight: Double {
        switch self {
        case .cell: 12
        case .caption: 16
        case .footnote: 18
        case .body: 20
        case .headline: 22
        case .title: 25
        }
    }

    /// The font size in points (CSS pixels in the browser preview). A cell is a 10-point em: a character
    /// is half of it, 5 points.
    public var pointSize: Double {
        switch self {
        case .cell: 10
        case .caption: 12
        case .footnote: 13
        case .body: 15
        case .headline: 17
        case .title: 20
        }
    }

    /// The style word of a call: this style's number in bits 8-11 and `style`'s own bits.
    func word(_ style: TextStyle) -> UInt32 { (style.rawValue & ~FLOOR_TEXT_STYLE_MASK) | rawValue }
}
