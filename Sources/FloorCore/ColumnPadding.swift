/// A cell of a plain-text table: `self` cut or padded with spaces to exactly `width` UTF-16 code units, as
/// Foundation's `padding(toLength:withPad: " ", startingAt: 0)` made it (ARCHITECTURE.md, "Two executables":
/// floorhost links no Foundation). Cut at a code unit boundary inside a surrogate pair, the half pair
/// becomes U+FFFD (Foundation left it unpaired, which a Swift String cannot hold).
extension StringProtocol {
    package func padded(toWidth width: Int) -> String {
        let units = utf16.count
        if units >= width { return String(decoding: Array(utf16.prefix(width)), as: UTF16.self) }
        return String(self) + String(repeating: " ", count: width - units)
    }
}
