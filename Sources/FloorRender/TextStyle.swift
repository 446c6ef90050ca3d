import CFloorABI

/// How a piece of text in a text grid is shown: the canvas `text` call's style bits (floor_abi.h) that a
/// terminal can show. A grid cell carries one; the grid writes it as ANSI SGR only when asked to
/// (`TextGrid.write(line:to:styled:)`), so plain output and a terminal front end share one model.
/// Centring is a placement, not a style, and is not kept.
public struct TextStyle: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = TextStyle(rawValue: 1 << 0)
    /// Secondary text (a subtitle, a marker): grey.
    public static let muted = TextStyle(rawValue: 1 << 1)
    /// Prices and highlights: red, as e-commerce apps show prices.
    public static let accent = TextStyle(rawValue: 1 << 2)
    /// Struck through (an old price): SGR 9 when styled; plain output puts U+0336 after each character.
    public static let strike = TextStyle(rawValue: 1 << 3)

    /// The bits `sgrTable` is indexed by.
    package static let tableMask: UInt8 = 0xF

    /// The style bits of a floor_canvas_t.text call (unknown bits and FLOOR_TEXT_CENTER ignored).
    public init(canvasStyle: UInt32) {
        var style: TextStyle = []
        if canvasStyle & FLOOR_TEXT_BOLD != 0 { style.insert(.bold) }
        if canvasStyle & FLOOR_TEXT_MUTED != 0 { style.insert(.muted) }
        if canvasStyle & FLOOR_TEXT_ACCENT != 0 { style.insert(.accent) }
        if canvasStyle & FLOOR_TEXT_STRIKE != 0 { style.insert(.strike) }
        self = style
    }

    /// The SGR sequence that switches a terminal from any style to this one: a reset, then the
    /// attributes (`ESC[0m` alone for no style). The only escape sequences text output ever contains.
    public var sgr: [UInt8] { Self.sgrTable[Int(rawValue & Self.tableMask)] }

    /// `sgr` of every style, by raw value: written once per change of style, never built per cell.
    package static let sgrTable: [[UInt8]] = (0...Int(tableMask)).map { TextStyle(rawValue: UInt8($0)).makeSGR() }

    /// The length of the longest `sgr`, for sizing buffers.
    package static let longestSGR = sgrTable.map(\.count).max()!

    private func makeSGR() -> [UInt8] {
        var parameters = "0"
        if contains(.bold) { parameters += ";1" }
        if contains(.strike) { parameters += ";9" }
        if contains(.accent) {
            parameters += ";31"
        } else if contains(.muted) {
            parameters += ";90"
        }
        return Array("\u{1B}[\(parameters)m".utf8)
    }
}
