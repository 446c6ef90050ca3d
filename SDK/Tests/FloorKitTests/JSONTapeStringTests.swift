import Testing

@testable import FloorKit

/// The tape skips plain string bytes eight at a time: a quote, a backslash or a control character must be
/// found wherever it falls in a word, so a string reads the same, and fails the same, at every length.
@Suite struct JSONTapeStringTests {
    static func tape(_ text: [UInt8]) -> Result<String, JSONTape.SyntaxError> {
        text.withUnsafeBytes { bytes in
            do throws(JSONTape.SyntaxError) {
                let tape = try JSONTape(bytes)
                return .success(tape.string(tape.nodes[0]))
            } catch {
                return .failure(error)
            }
        }
    }

    @Test func anEscapeAtEveryPlaceReadsTheSame() throws {
        for prefix in 0..<20 {
            for escape in [#"\""#, #"\\"#, #"\n"#, #"\u00e9"#, #"\/"#] {
                let plain = String(repeating: "a", count: prefix)
                let text = Array(("\"" + plain + escape + "b中\"").utf8)
                let expected =
                    plain + ["\\\"": "\"", "\\\\": "\\", "\\n": "\n", "\\u00e9": "é", "\\/": "/"][escape]! + "b中"
                #expect(try Self.tape(text).get() == expected, "\(String(decoding: text, as: UTF8.self))")
            }
        }
    }

    @Test func aControlCharacterAtEveryPlaceIsRefusedWhereItIs() {
        for prefix in 0..<20 {
            for control: UInt8 in [0x00, 0x01, 0x0A, 0x1F] {
                let text = [UInt8(ascii: "\"")] + Array(repeating: UInt8(ascii: "a"), count: prefix) + [control, 0x22]
                guard case .failure(let error) = Self.tape(text) else {
                    Issue.record("accepted a control character after \(prefix) bytes")
                    continue
                }
                #expect(error.offset == prefix + 1 && error.message == "control character in a string")
            }
        }
    }

    @Test func anUnterminatedStringIsRefusedAtItsQuote() {
        for length in 0..<20 {
            let text = [UInt8(ascii: "\"")] + Array(repeating: UInt8(ascii: "a"), count: length)
            guard case .failure(let error) = Self.tape(text) else {
                Issue.record("accepted an unterminated string of \(length) bytes")
                continue
            }
            #expect(error.offset == 0 && error.message == "unterminated string")
        }
    }
}
