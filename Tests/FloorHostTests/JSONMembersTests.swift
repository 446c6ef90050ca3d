import FloorCore
import Testing

// JSONWriter.object: the commas between an object's members are written for its caller, nested objects and arrays
// included, and what it writes is JSON (parsed back here by the host's own reader).
struct JSONMembersTests {
    static func text(_ out: JSONWriter) -> String { String(decoding: out.bytes, as: UTF8.self) }

    @Test func membersAreSeparatedByOneCommaEach() {
        var out = JSONWriter()
        out.object { o in
            o.member("name", "a \"quoted\" name")
            o.member("none", nil as String?)
            o.member("count", 3)
            o.member("y", 1.5)
            o.member("same", false)
            o.object("empty") { _ in }
            o.object("place") { p in
                p.member("row", 0)
                p.key("old")
                p.writer.raw("null")
            }
            o.object("missing", nil as Int?) { _, _ in }
            o.object("given", 7 as Int?) { value, v in v.member("value", value) }
            o.array("rows", [1, 2, 3]) { r, out in out.number(r) }
            o.array("none", [Int]()) { r, out in out.number(r) }
        }
        #expect(
            Self.text(out)
                == #"{"name":"a \"quoted\" name","none":null,"count":3,"y":1.5,"same":false,"empty":{},"#
                + #""place":{"row":0,"old":null},"missing":null,"given":{"value":7},"rows":[1,2,3],"none":[]}"#)
        #expect(JSONValue.parse(out.bytes) != nil)
    }

    /// A member's value written by a throwing function: the writer is whole again after the throw.
    @Test func aThrowLeavesTheWriterWhole() {
        struct Stop: Error {}
        var out = JSONWriter()
        out.raw("[")
        #expect(throws: Stop.self) {
            try out.object { o in
                o.member("first", 1)
                throw Stop()
            }
        }
        out.raw("]")
        #expect(Self.text(out) == #"[{"first":1]"#)
    }
}
