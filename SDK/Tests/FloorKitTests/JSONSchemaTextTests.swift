import Testing

@testable import FloorKit

/// The schema's JSON text as a plugin ships it (`schema_json`): strings quoted as JSON has them.
struct JSONSchemaTextTests {
    @Test func aStringIsQuotedWithWhatJSONMustEscapeEscaped() {
        #expect(JSONSchema.quoted("") == #""""#)
        #expect(JSONSchema.quoted("The products, 商品 ¥") == #""The products, 商品 ¥""#)
        #expect(JSONSchema.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONSchema.quoted("x\ny\tz\u{1}\u{1F}é") == #""x\ny\tz\u0001\u001fé""#)
    }

    /// Every member, in its fixed order, nested objects and arrays written into the one text.
    @Test func everyMemberIsWrittenInItsOrder() {
        #expect(JSONSchema().json == "{}")
        #expect(JSONSchema(types: ["string", "null"]).json == #"{"type":["string","null"]}"#)
        let item = JSONSchema(
            types: ["object"], properties: [("id", .string), ("n", JSONSchema(types: ["integer"], minimum: 1))],
            required: ["id"], additionalProperties: false)
        let schema = JSONSchema(
            types: ["object"], description: "A \"floor\"",
            properties: [
                ("items", JSONSchema(types: ["array"], items: item, minItems: 1)),
                ("style", JSONSchema(types: ["string"], enumValues: [#""a""#, #""b""#], defaultValue: #""a""#)),
                ("ratio", JSONSchema(types: ["number"], minimum: 0.5, maximum: 2)),
                ("code", JSONSchema(types: ["string"], minLength: 2, pattern: "^[A-Z]+$")),
                ("empty", JSONSchema()),
            ],
            required: ["items", "style"], additionalProperties: true)
        #expect(
            schema.json
                == #"{"type":"object","description":"A \"floor\"","properties":{"items":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"n":{"type":"integer","minimum":1}},"required":["id"],"additionalProperties":false},"minItems":1},"style":{"type":"string","enum":["a","b"],"default":"a"},"ratio":{"type":"number","minimum":0.5,"maximum":2},"code":{"type":"string","minLength":2,"pattern":"^[A-Z]+$"},"empty":{}},"required":["items","style"],"additionalProperties":true}"#
        )
    }
}
