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
        #expect(s.items.map(\.key) == [.id("x"), .id("7"), .anonymous(s.items[2].content), .id("y")])
        let retitled = signature(
            #"{"type":"F","id":"f","header":{"title":"H2"},"items":[{"id":"x","v":1},{"id":7},{"v":2},{"id":"\u0079"}]}"#
        )
        #expect(retitled.own == s.own && retitled.items == s.items && retitled.header != s.header)
    }
}
