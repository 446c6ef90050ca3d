// What `floorhost render` looks at: the screen (--viewport), where it scrolls to (--scroll-to) and the item
// it taps (--tap). Each parses its argument and writes it back (`description`), for a child of floorhost.
// The CLI parses them with `parsing: .unconditional`, so that "-5" reaches them instead of being read as
// an option, and each says what it expected: ArgumentParser prints
// "The value 'X' is invalid for '--option <V>': <message>" and exits 64.

/// An option's value of the wrong form (--viewport, --scroll-to, --tap, --allow-origin, --ca-file), with the
/// form expected: ArgumentParser prints it as the reason the value is invalid.
package struct ArgumentFormError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}

/// `--viewport WxH`.
package struct ViewportSize: Sendable, CustomStringConvertible {
    package let width: Double
    package let height: Double

    package init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    package var description: String { "\(width)x\(height)" }

    package static func parse(_ argument: String) throws -> ViewportSize {
        let form = "expected WIDTHxHEIGHT in points, e.g. --viewport 375x812 (an iPhone's screen)"
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]) else {
            throw ArgumentFormError(
                parts.count == 1 && Double(argument) != nil ? "\(form); '\(argument)' has no height" : form)
        }
        guard w >= 1, w <= 100_000, h >= 1, h <= 1_000_000 else {
            throw ArgumentFormError("the width must be 1 to 100000 points and the height 1 to 1000000; \(form)")
        }
        return ViewportSize(width: w, height: h)
    }
}

/// `--scroll-to end|Y`.
package enum ScrollTarget: Sendable, CustomStringConvertible {
    case end
    case offset(Double)

    package var description: String {
        switch self {
        case .end: "end"
        case .offset(let y): "\(y)"
        }
    }

    package static func parse(_ argument: String) throws -> ScrollTarget {
        if argument == "end" { return .end }
        let form = "expected 'end' or Y, a number of points from the top of the page, 0 or more (e.g. --scroll-to 2400)"
        guard let y = Double(argument), y.isFinite else { throw ArgumentFormError(form) }
        guard y >= 0 else { throw ArgumentFormError("\(argument) is above the top of the page; \(form)") }
        return .offset(y)
    }
}

/// `--tap SECTION:ROW[:ITEM]`.
package struct TapTarget: Sendable, CustomStringConvertible {
    package let section: Int
    package let row: Int
    package let item: Int

    package var description: String { "\(section):\(row):\(item)" }

    package static func parse(_ argument: String) throws -> TapTarget {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil && $0! >= 0 }) else {
            throw ArgumentFormError(
                "expected SECTION:ROW or SECTION:ROW:ITEM, whole numbers from 0 (e.g. --tap 1:0:2; --gutter shows each row's SECTION:ROW)"
            )
        }
        return TapTarget(section: parts[0]!, row: parts[1]!, item: parts.count == 3 ? parts[2]! : 0)
    }
}
