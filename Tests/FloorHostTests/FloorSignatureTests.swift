import FloorRuntime
import FloorSession
import Testing

/// What a floor's signature says is "the same content": values, not their spelling.
struct FloorSignatureTests {
    private func signature(_ json: String) -> FloorSignature {
        Array(json.utf8).withUnsafeBytes { FloorSignature(json: $0) }
    }

    @Test func whitespaceKeyOrderAndEscapesDoNotCountButValuesDo() {
        let base = signature(#"{"type":"Title","id":"t","title":"a/b","margin":{"top":6,"bottom":0}}"#)
        #expect(signature(#"{ "id" : "t", "margin":{"bottom":0,"top":6},"title":"a\/b" ,"type":"Title"}"#) == base)
        #expect(signature(#"{"type":"Title","id":"t","title":"a\u002fb","margin":{"top":6,"bottom":0}}"#) == base)
        #expect(
            signature(#"{"type":"Title","id":"t","title":"a/c","margin":{"top":6,"bottom":0}}"#).whole != base.whole)
        #expect(
            signature(#"{"type":"Title","id":"t","title":"a/b","margin":{"top":6.0,"bottom":0}}"#).whole != base.whole,
            "a number written otherwise counts as a change")
        // Strings do not run into each other.
        #expect(signature(#"{"a":["ab","c"]}"#).whole != signature(#"{"a":["a","bc"]}"#).whole)
    }

    @Test func itemsCarryTheirIdsAndTheCommonFieldsAreApart() {
        let s = signature(
            #"{"type":"F","id":"f","header":{"title":"H"},"items":[{"id":"x","v":1},{"id":7},{"v":2},{"id":"\u0079"}]}"#
        )
        func id(_ text: String) -> UInt64 { FloorSignature.idHash(text) }
        #expect(s.items.map(\.key) == [.id(id("x")), .id(id("7")), .anonymous(s.items[2].content), .id(id("y"))])
        let retitled = signature(
            #"{"type":"F","id":"f","header":{"title":"H2"},"items":[{"id":"x","v":1},{"id":7},{"v":2},{"id":"\u0079"}]}"#
        )
        #expect(retitled.own == s.own && retitled.items == s.items && retitled.header != s.header)
    }

    /// An item is two hashes, 16 bytes (the walk keeps one an item of every floor until the render ends: 43,000
    /// in the 8 MB benchmark page): its id's text is read from the page when a diff names it.
    @Test func anItemIsItsIdsHashAndItsContentsIn16Bytes() {
        #expect(MemoryLayout<FloorSignature.Item>.stride == 16)
        let s = signature(#"{"items":[{"id":"p1"},{"id":"p\u0031"},{"id":12},{"id":"12"},{"id":1.5},{"v":1}]}"#)
        #expect(s.items.map(\.hasID) == [true, true, true, true, false, false])
        #expect(s.items[0].id == s.items[1].id, "an id is its text, escapes resolved")
        #expect(s.items[2].id == s.items[3].id, "an integer id is its text as written, as PageContent reads it")
        #expect(s.items[0].id != s.items[2].id)
    }
}
