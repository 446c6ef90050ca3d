import Testing

@testable import FloorKit

/// A tape's node memory is kept from one parse to the next (one block, up to NodeBlocks.keptBytes), and let
/// go when the decoding is over.
@Suite struct NodeBlocksTests {
    @Test func theBlockGivenBackIsTheNextParsesWhenLargeEnough() {
        let blocks = NodeBlocks()
        let first = blocks.allocate(capacity: 1000)
        #expect(NodeBlocks.capacity(of: first) == 1000)
        blocks.give(first)
        let second = blocks.allocate(capacity: 1500)
        #expect(second == first, "1,000 nodes are half of 1,500 or more: kept and grown if need be")
        blocks.give(second)
        let third = blocks.allocate(capacity: 5000)
        #expect(
            NodeBlocks.capacity(of: third) == 5000, "too small: freed, a new one (malloc may hand the same address)")
        blocks.give(third)
        blocks.letGo()
        let fourth = blocks.allocate(capacity: 10)
        #expect(NodeBlocks.capacity(of: fourth) == 10, "let go: nothing kept")
        NodeBlocks.free(fourth)
    }

    @Test func aBlockPastTheKeptSizeIsNotKept() {
        let blocks = NodeBlocks()
        let nodes = NodeBlocks.keptBytes / MemoryLayout<JSONTape.Node>.stride + 1
        blocks.give(blocks.allocate(capacity: nodes))
        let next = blocks.allocate(capacity: 10)
        #expect(NodeBlocks.capacity(of: next) == 10)
        blocks.give(next)
        blocks.letGo()
    }

    /// A tape parsed in a reused block reads as one parsed in a new one: no node of the parse before shows.
    @Test func aTapeInAReusedBlockReadsTheSame() throws {
        let big = Array(#"{"a":[1,2,3,{"b":"x"}],"c":"long string here","d":{"e":null}}"#.utf8)
        let small = Array(#"{"k":"v"}"#.utf8)
        try big.withUnsafeBytes { bytes in _ = try JSONTape(bytes) }
        let tape = try small.withUnsafeBytes { bytes in
            let tape = try JSONTape(bytes)
            return (tape.nodes.count, tape.nodes[0].count, tape.string(tape.nodes[2]))
        }
        #expect(tape.0 == 3 && tape.1 == 1 && tape.2 == "v")
    }
}
