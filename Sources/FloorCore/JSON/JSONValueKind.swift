/// What a JSON value is, told by its first byte; the raw value is what messages say ("found number").
package enum JSONValueKind: String, Sendable {
    case object, array, string, number, boolean, null

    /// The kind of the value that starts with `first`; nil for a byte no value starts with.
    @inlinable package init?(first: UInt8) {
        switch first {
        case JSONByte.openBrace: self = .object
        case JSONByte.openBracket: self = .array
        case JSONByte.quote: self = .string
        case JSONByte.minus, JSONByte.zero...JSONByte.nine: self = .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): self = .boolean
        case UInt8(ascii: "n"): self = .null
        default: return nil
        }
    }
}
