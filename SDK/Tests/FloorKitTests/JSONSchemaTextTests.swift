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
}
