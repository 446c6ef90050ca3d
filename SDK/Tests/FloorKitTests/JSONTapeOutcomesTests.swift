import Foundation
import Testing

@testable import FloorKit

/// The tape's answer to a corpus of broken and valid floors, against the answers recorded in
/// TapeOutcomes.txt: the same error (message and byte offset) for every broken input, the same nodes
/// (kinds, flags, offsets, counts, skips) for every valid one. The corpus is made here, from fixed seeds:
/// each seed document cut short, with a byte left out, replaced or put in (bytes JSON gives a meaning to,
/// and a few it refuses), and nested past the depth limit. Recorded from the parser as it was before a
/// change to it (`FLOORKIT_RECORD_TAPE_OUTCOMES=1 swift test --filter JSONTapeOutcomesTests` writes the
/// file instead of comparing), so a change of how the tape is parsed shows here as any answer that moved.
@Suite struct JSONTapeOutcomesTests {
    static let seeds: [String] = [
        #"{"type":"ProductFeed","id":"feed","header":{"title":"猜你喜欢","sticky":true},"sorts":["综合 Best","销量 Sales"],"items":[{"id":"p1","title":"无线蓝牙耳机 Pro","price":"¥199.00","img":"https://img.example.com/p/1.jpg","jump":{"url":"app://product/1","eventId":"feed_click"}},{"id":"p2","title":"Stainless steel bottle 750ml","price":59.9,"originalPrice":79,"img":"https://img.example.com/p/2.jpg","jump":{"url":"app://product/2"}}]}"#,
        "{ \"a\" : [ 1 , -2.5e+3 , 0 , 1E-2 , true , false , null ] ,\n\t\"b\\\"c\" : { \"\" : \"\\u00e9\\n\\ud83d\\ude00\" } , \"a\" : [ ] , \"d\" : { } }\r\n",
        #"[[[[{"k":[0.5,"x\\y\/z",{"n":null}]}]]],-0,123456789012345678901234567890,"tab\there"]"#,
        #"  "just a string"  "#,
        "-12.75e-3",
    ]

    /// Bytes a mutation puts in: the structure's, a value's first bytes, escapes' letters, spaces, a control
    /// character, and UTF-8 (a lead byte, a continuation byte, and 0xFF, never valid).
    static let alphabet: [UInt8] =
        Array("{}[]:,\"\\u0194-+.eEtfnax \n\t/b".utf8) + [0x01, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF]

    static func corpus() -> [[UInt8]] {
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        var inputs: [[UInt8]] = [[], Array(" ".utf8)]
        for text in seeds {
            let bytes = Array(text.utf8)
            inputs.append(bytes)
            for cut in 0..<bytes.count { inputs.append(Array(bytes[..<cut])) }
            for _ in 0..<600 {
                var mutant = bytes
                let at = next(mutant.count)
                switch next(3) {
                case 0: mutant.remove(at: at)
                case 1: mutant[at] = alphabet[next(alphabet.count)]
                default: mutant.insert(alphabet[next(alphabet.count)], at: at)
                }
                inputs.append(mutant)
            }
        }
        for depth in [255, 256, 257] {
            inputs.append(Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8))
            inputs.append(
                Array((String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)).utf8))
        }
        return inputs
    }

    /// "error OFFSET MESSAGE", or "ok NODES DIGEST" with an FNV-1a digest of every node's fields.
    static func outcome(_ input: [UInt8]) -> String {
        input.withUnsafeBytes { bytes in
            do throws(JSONTape.SyntaxError) {
                let tape = try JSONTape(bytes)
                var digest: UInt64 = 0xCBF2_9CE4_8422_2325
                func mix(_ value: Int64) {
                    digest = (digest ^ UInt64(bitPattern: value)) &* 0x100_0000_01B3
                }
                for node in tape.nodes {
                    mix(Int64(node.kind.rawValue))
                    mix((node.escaped ? 1 : 0) | (node.ascii ? 2 : 0) | (node.keysMayRepeat ? 4 : 0))
                    for field in [node.start, node.end, node.count, node.next] { mix(Int64(field)) }
                }
                return "ok \(tape.nodes.count) \(String(digest, radix: 16))"
            } catch {
                return "error \(error.offset) \(error.message)"
            }
        }
    }

    static let recorded = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("TapeOutcomes.txt")

    @Test func everyInputParsesOrFailsAsRecorded() throws {
        let outcomes = Self.corpus().map(Self.outcome)
        if ProcessInfo.processInfo.environment["FLOORKIT_RECORD_TAPE_OUTCOMES"] == "1" {
            try (outcomes.joined(separator: "\n") + "\n").write(to: Self.recorded, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: Self.recorded, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(outcomes.count == expected.count)
        let corpus = Self.corpus()
        for (index, (got, want)) in zip(outcomes, expected).enumerated() where got != want {
            Issue.record("input \(index) \(Array(corpus[index]).debugDescription): \(got), recorded \(want)")
        }
        // The corpus is not all errors: valid inputs check the nodes too.
        #expect(expected.filter { $0.hasPrefix("ok") }.count > 100)
    }
}
