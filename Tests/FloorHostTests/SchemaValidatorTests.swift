import FloorRuntime
import FloorSession
import Testing

/// The host's validator for the schema subset, on floor objects as the page scanner hands them over.
@Suite struct SchemaValidatorTests {
    static let schema = #"""
        {"type":"object","properties":{
          "count":{"type":"integer","minimum":1},
          "ratio":{"type":"number","maximum":1},
          "kind":{"enum":["a","b",3,null]},
          "tags":{"type":"array","items":{"type":"string"}},
          "extra":{"type":"object","additionalProperties":{"type":"boolean"}},
          "any":{}
        },"required":["count"]}
        """#

    /// Findings for `floor` (a floor object's JSON) as "path: message".
    func findings(_ floor: String, schema text: String = schema) throws -> [String] {
        let declared = try DeclaredSchema.parse(text).get()
        let page = Array(#"{"floors":["#.utf8) + Array(floor.utf8) + Array("]}".utf8)
        let spec = try PageScanner.scan(page)
        return page.withUnsafeBytes { raw in
            SchemaValidator.validate(
                UnsafeRawBufferPointer(rebasing: raw[spec.floors[0].bytes]), against: declared.floorObject,
                typeName: "T")
        }.map { "\($0.path): \($0.message)" }
    }

    /// "pattern" (matched by ICU over the UTF-8, CPattern): not anchored, lookahead and non-ASCII classes as
    /// ECMA-262 has them; a pattern ICU cannot read is refused when the schema is read.
    @Test func aPatternMatchesAsJSONSchemaSaysAndABadOneIsRefused() throws {
        let price = #"^ *[¥￥]? *[0-9](,?[0-9]){0,11}(\\.[0-9]+)? *(?![\\s\\S])"#
        let schema = #"{"type":"object","properties":{"p":{"type":"string","pattern":""# + price + #""}}}"#
        for good in ["199", "¥1,299.00", " ￥5 ", "0.5"] {
            #expect(try findings(#"{"p":""# + good + #""}"#, schema: schema) == [], "\(good)")
        }
        for bad in ["19x9", "¥99起", "Free", "", "1,2,3,4,5,6,7,8,9,0,1,2,3"] {
            let found = try findings(#"{"p":""# + bad + #""}"#, schema: schema)
            #expect(found.count == 1 && found[0].hasPrefix("p: T expects text matching"), "\(bad): \(found)")
        }
        // Not anchored: "x" anywhere.
        let anywhere = #"{"type":"object","properties":{"p":{"type":"string","pattern":"x"}}}"#
        #expect(try findings(#"{"p":"abxcd"}"#, schema: anywhere) == [])
        #expect(try findings(#"{"p":"abcd"}"#, schema: anywhere).count == 1)
        #expect(throws: (any Error).self) {
            try DeclaredSchema.parse(#"{"type":"object","properties":{"p":{"type":"string","pattern":"("}}}"#).get()
        }
    }

    @Test func aConformingFloorHasNoFindings() throws {
        #expect(
            try findings(
                #"{"type":"T","id":1,"count":2.0,"ratio":0.5e0,"kind":3,"tags":["x","y"],"extra":{"q":true},"any":[{"deep":[1,{"x":null}]}],"header":{"title":"H"},"margin":{"top":0}}"#
            ) == [])
        #expect(try findings(#"{"kind":null,"count":1}"#) == [])
    }

    @Test func eachKindOfMistakeNamesItsPathAndTheExpectation() throws {
        let found = try findings(#"{"count":1.5,"ratio":"x","kind":"c","tags":["x",2],"extra":{"q":1},"cuont":1}"#)
        #expect(
            found == [
                "count: T expects an integer here, found a number with a fraction (1.5)",
                "ratio: T expects a number here, found a string",
                #"kind: T allows only "a", "b", 3, null here, found "c""#,
                "tags[1]: T expects a string here, found an integer (2)",
                "extra.q: T expects a boolean here, found an integer (1)",
                "cuont: unknown field of T; did you mean 'count'?",
            ], "\(found)")
        #expect(
            try findings(#"{"ratio":2}"#) == [
                "ratio: T expects at most 1 here, found 2", "count: missing required field 'count' (an integer) of T",
            ])
        #expect(try findings(#"{"count":0}"#) == ["count: T expects at least 1 here, found 0"])
    }

    /// Keys are compared after unescaping, as the scanner and the plugins' decoders compare them.
    @Test func escapedKeysAreTheFieldsTheyName() throws {
        #expect(try findings(#"{"c\u006funt":1,"\u0074ags":[]}"#) == [])
        #expect(try findings(#"{"count":1,"t\u00e4gs":[]}"#) == ["tägs: unknown field of T; did you mean 'tags'?"])
    }

    @Test func anUnusableSchemaSaysWhere() {
        for (text, expected) in [
            (#"{"type":"object","properties":{"a":{"type":"text"}}}"#, "at /properties/a/type: \"type\" must name"),
            // A name's `~` and `/` escaped as JSON Pointer has them, other characters as they are.
            (
                #"{"type":"object","properties":{"ä~/b":{"type":"text"}}}"#,
                "at /properties/ä~0~1b/type: \"type\" must name"
            ),
            (#"{"type":"string"}"#, "the root must describe the floor object"),
            (#"{"type":"object","required":"a"}"#, "at /required: \"required\" must be an array of strings"),
            (
                #"{"type":"object","properties":{"a":{"minimum":"1"}}}"#,
                "at /properties/a/minimum: \"minimum\" must be a number"
            ),
            (#"{"type":"object",}"#, "not JSON"),
        ] {
            guard case .failure(let error) = DeclaredSchema.parse(text) else {
                Issue.record("\(text) parsed")
                continue
            }
            #expect(error.description.contains(expected), "\(error)")
        }
    }
}
