import CPattern
import FloorRuntime
import Foundation
import Testing

/// FloorKit's number-as-text pattern is matched by hand (NumericTextPattern): for every text it must answer
/// as ICU answers, and the shipped plugins must export exactly that pattern for the hand matcher to apply.
struct NumericTextPatternTests {
    static func mine(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { NumericTextPattern.matches(UnsafeRawBufferPointer($0)) }
    }

    @Test func answersAsICUDoesOnPrices() {
        let texts = [
            "199", "¥199", "￥1,299.00", " ¥ 1,299.00 ", "1,2,3", "1,,2", ",1", "1,", "1.", ".5", "1.5.5", "0.001",
            "123456789012", "1234567890123", "1,234,567,890,12", "1,234,567,890,123", "¥", "", " ", "¥¥1", "1 2",
            "1\n", "\n1", "１２", "1e5", "-1", "+1", "1.0 ", " 1", "1,234.5678901234567", "$1", "¥ ", "1,2.3",
        ]
        for text in texts {
            #expect(
                Self.mine(text) == CharacterClassTests.icu(NumericTextPattern.text, text), "\(text.debugDescription)")
        }
    }

    /// Random texts over the characters the rule is about: the same answer every time.
    @Test func answersAsICUDoesOnAnyText() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["1", "2", "0", "9", ",", ".", " ", "¥", "￥", "a", "\n", "1234"]
        var wrong: [String] = []
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...16, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            if Self.mine(text) != CharacterClassTests.icu(NumericTextPattern.text, text) { wrong.append(text) }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5).map(\.debugDescription))")
    }

    /// ProductFeed's prices are declared with FloorKit's `amount`: the schema it exports carries this very
    /// pattern, so the page check never reaches ICU for them.
    @Test func theShippedPluginsExportThisPattern() throws {
        let folder = try TemporaryFolder("numeric-pattern")
        let result = try floorhost(["schema", "--plugins", try folder.installShippedPlugins()])
        #expect(result.status == 0, "\(result.stderr)")
        let patterns = result.stdout.matches(of: #/"pattern": *("(?:[^"\\]|\\.)*")/#).compactMap {
            try? JSONDecoder().decode(String.self, from: Data($0.output.1.utf8))
        }
        #expect(patterns.contains(NumericTextPattern.text), "\(Set(patterns))")
    }
}
