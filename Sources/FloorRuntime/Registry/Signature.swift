/// A selector's type, parsed from the ABI's short encoding "<result>(<arguments>)", e.g. "d(ppQd)".
/// See floor_abi.h for the letters. The host compares a registered selector's signature with the one its
/// slot expects before it ever calls the function.
package struct Signature: Equatable, Sendable, CustomStringConvertible {
    package enum ValueType: Character, Sendable {
        case void = "v"
        case bool = "b"
        case int32 = "i"
        case uint32 = "u"
        case int64 = "q"
        case uint64 = "Q"
        case double = "d"
        case pointer = "p"
    }

    package let result: ValueType
    package let arguments: [ValueType]

    /// Nil when `encoding` is not a well-formed signature (unknown letter, void argument, bad brackets).
    package init?(_ encoding: String) {
        let letters = Array(encoding)
        guard letters.count >= 3, letters[1] == "(", letters.last == ")",
            let result = ValueType(rawValue: letters[0])
        else { return nil }
        var arguments: [ValueType] = []
        for letter in letters[2..<(letters.count - 1)] {
            guard let type = ValueType(rawValue: letter), type != .void else { return nil }
            arguments.append(type)
        }
        self.result = result
        self.arguments = arguments
    }

    package var description: String { "\(result.rawValue)(\(String(arguments.map(\.rawValue))))" }
}
