import FloorConform
import FloorRuntime
import FloorSession
import Foundation
import Testing

// Unit tests for `PageScanner`: the page shape it extracts (floor types, ids, byte ranges, `next`), the
// problems it attaches to bad floors, and the exact position and wording of every kind of error it throws.

// MARK: - Helpers

/// Scans `text` as UTF-8.
private func scan(_ text: String) throws -> PageSpec {
    try PageScanner.scan(Array(text.utf8))
}

/// The error scanning `bytes` throws, or nil when it is accepted.
private func scanError(_ bytes: [UInt8]) -> PageSyntaxError? {
    do {
        _ = try PageScanner.scan(bytes)
        return nil
    } catch {
        return error
    }
}

private func scanError(_ text: String) -> PageSyntaxError? { scanError(Array(text.utf8)) }

/// Expects scanning `bytes` to fail at `line`:`column` (and at byte `offset` when given) with a message
/// containing `fragment`.
private func expectError(
    _ bytes: [UInt8], line: Int, column: Int, offset: Int? = nil, _ fragment: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let error = scanError(bytes) else {
        Issue.record(
            "expected an error containing \"\(fragment)\", but the page was accepted", sourceLocation: sourceLocation)
        return
    }
    #expect(error.line == line, "\(error)", sourceLocation: sourceLocation)
    #expect(error.column == column, "\(error)", sourceLocation: sourceLocation)
    if let offset { #expect(error.offset == offset, "\(error)", sourceLocation: sourceLocation) }
    #expect(error.message.contains(fragment), "\(error)", sourceLocation: sourceLocation)
}

private func expectError(
    _ text: String, line: Int, column: Int, offset: Int? = nil, _ fragment: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    expectError(Array(text.utf8), line: line, column: column, offset: offset, fragment, sourceLocation: sourceLocation)
}

/// The page text a floor's `bytes` range covers.
private func slice(_ page: String, _ floor: FloorSpec) -> String {
    String(decoding: Array(page.utf8)[floor.bytes], as: UTF8.self)
}

/// A page with the given floors array contents.
private func page(floors: String) -> String { #"{"floors": ["# + floors + "]}" }

// MARK: - Valid pages

struct PageScannerValidPageTests {
    @Test func minimalPageHasNoFloorsAndNoNext() throws {
        let spec = try scan(#"{"floors":[]}"#)
        #expect(spec == PageSpec(floors: [], next: nil))
    }

    /// JSON whitespace (space, tab, LF, CR) is allowed around every token, and does not leak into `bytes`.
    @Test func whitespaceAroundEveryToken() throws {
        let text =
            " \t\n{ \"floors\" :\t[ \n { \"type\" : \"Title\" , \"id\" : \"t1\" }\t, {\"type\":\"Focus\"} ] ,\r\n \"next\" : \"p2.json\" } \n\t"
        let spec = try scan(text)
        #expect(spec.next == "p2.json")
        #expect(spec.floors.map(\.type) == ["Title", "Focus"])
        #expect(spec.floors.map(\.id) == ["t1", nil])
        #expect(spec.floors.map(\.index) == [0, 1])
        #expect(spec.floors.allSatisfy { $0.problems.isEmpty })
        #expect(slice(text, spec.floors[0]) == #"{ "type" : "Title" , "id" : "t1" }"#)
        #expect(slice(text, spec.floors[1]) == #"{"type":"Focus"}"#)
    }

    /// Windows line endings are plain whitespace.
    @Test func crlfLineEndings() throws {
        let text = "{\r\n  \"floors\": [\r\n    {\"type\": \"Title\", \"id\": 7}\r\n  ],\r\n  \"next\": null\r\n}\r\n"
        let spec = try scan(text)
        #expect(spec.floors.count == 1)
        #expect(spec.floors[0].type == "Title")
        #expect(spec.floors[0].id == "7")
        #expect(spec.next == nil)
    }

    /// `pattern` (an older CMS name) stands in for `type` when `type` is absent.
    @Test func patternIsAnAliasForType() throws {
        let spec = try scan(page(floors: #"{"pattern": "Focus", "id": "f"}"#))
        #expect(spec.floors[0].type == "Focus")
        #expect(spec.floors[0].problems.isEmpty)
    }

    /// When both are present, `type` wins, whichever comes first.
    @Test func typeWinsOverPattern() throws {
        let spec = try scan(page(floors: #"{"pattern": "Old", "type": "New"}, {"type": "New", "pattern": "Old"}"#))
        #expect(spec.floors.map(\.type) == ["New", "New"])
        #expect(spec.floors.allSatisfy { $0.problems.isEmpty })
    }

    /// An integer id is kept as its decimal text, exactly as written (no Int conversion, so no overflow).
    @Test func integerIdsKeepTheirDecimalText() throws {
        let spec = try scan(
            page(
                floors:
                    #"{"type":"A","id":42}, {"type":"A","id":-7}, {"type":"A","id":0}, {"type":"A","id":-0}, {"type":"A","id":123456789012345678901234567890}"#
            ))
        #expect(spec.floors.map(\.id) == ["42", "-7", "0", "-0", "123456789012345678901234567890"])
        #expect(spec.floors.allSatisfy { $0.problems.isEmpty })
    }

    /// A floor without an `id` is fine for the scanner (the decoder names it by its path).
    @Test func absentIdIsNotAProblem() throws {
        let spec = try scan(page(floors: #"{"type":"A"}"#))
        #expect(spec.floors[0].id == nil)
        #expect(spec.floors[0].problems.isEmpty)
    }

    /// Keys are compared after unescaping, in floors and in the page object.
    @Test func escapedKeysMatch() throws {
        let text = #"{"fl\u006fors": [{"t\u0079pe": "A", "\u0069d": "x"}, {"p\u0061ttern": "B"}], "n\u0065xt": "p2"}"#
        let spec = try scan(text)
        #expect(spec.floors.map(\.type) == ["A", "B"])
        #expect(spec.floors[0].id == "x")
        #expect(spec.next == "p2")
    }

    /// Keys that merely resemble `type` (a prefix, a longer name, another case, a NUL appended) are other keys.
    @Test func nearMissKeysAreIgnored() throws {
        let spec = try scan(page(floors: #"{"typ": "A"}, {"types": "A"}, {"Type": "A"}, {"type\u0000": "A"}"#))
        #expect(spec.floors.map(\.type) == [nil, nil, nil, nil])
        #expect(spec.floors.map { $0.problems.map(\.text) } == (0..<4).map { ["floors[\($0)]: has no 'type'"] })
    }

    /// Only the page's own `floors`/`next` and each floor's own `type`/`id` count, not same-named keys nested deeper.
    @Test func nestedSameNamedKeysAreIgnored() throws {
        let text =
            #"{"meta": {"floors": [{"type": "X"}], "next": 5}, "floors": [{"type": "A", "data": {"type": 5, "id": 1.5}}]}"#
        let spec = try scan(text)
        #expect(spec.floors.count == 1)
        #expect(spec.floors[0].type == "A")
        #expect(spec.floors[0].id == nil)
        #expect(spec.floors[0].problems.isEmpty)
        #expect(spec.next == nil)
    }

    /// Raw UTF-8 CJK text and its `\u` escaped form decode to the same strings.
    @Test func cjkStrings() throws {
        let spec = try scan(
            #"{"floors": [{"type": "楼层", "id": "商品-1"}, {"type": "\u697C\u5C42"}], "next": "第二页.json"}"#)
        #expect(spec.floors.map(\.type) == ["楼层", "楼层"])
        #expect(spec.floors[0].id == "商品-1")
        #expect(spec.next == "第二页.json")
    }

    /// A `\uD83D\uDE00` pair decodes to one scalar, U+1F600, the same as the raw 4-byte UTF-8 form.
    @Test func surrogatePairsDecodeToOneScalar() throws {
        let spec = try scan(page(floors: #"{"type": "\uD83D\uDE00"}, {"type": "😀"}, {"type": "a\ud83d\ude00b"}"#))
        #expect(spec.floors.map(\.type) == ["😀", "😀", "a😀b"])
        #expect(spec.floors[0].type?.unicodeScalars.map(\.value) == [0x1F600])
    }

    /// Lone surrogate escapes are valid JSON; each unpaired half decodes to U+FFFD (documented choice).
    @Test func loneSurrogatesBecomeReplacementCharacters() throws {
        let spec = try scan(
            page(
                floors:
                    #"{"type": "\uD800"}, {"type": "\uD800A"}, {"type": "\uDC00\uD800"}, {"type": "\uD83D\uD83D\uDE00"}"#
            ))
        #expect(spec.floors.map(\.type) == ["\u{FFFD}", "\u{FFFD}A", "\u{FFFD}\u{FFFD}", "\u{FFFD}😀"])
    }

    /// Every short escape decodes to its character.
    @Test func shortEscapesDecode() throws {
        let spec = try scan(page(floors: #"{"type": "a\"b\\c\/d\be\ff\ng\rh\ti\u0000j"}"#))
        #expect(spec.floors[0].type == "a\"b\\c/d\u{8}e\u{C}f\ng\rh\ti\u{0}j")
    }

    /// Duplicate keys: the last one wins, in floors and in the page object.
    @Test func duplicateKeysLastWins() throws {
        let spec = try scan(
            #"{"floors": [{"type": "A"}], "next": "a", "floors": [{"type": 1, "type": "B", "id": 1.5, "id": "b"}], "next": null}"#
        )
        #expect(spec.floors.count == 1)
        #expect(spec.floors[0].type == "B")
        #expect(spec.floors[0].id == "b")
        // The earlier misfits are forgotten; the repeats themselves are reported (DuplicateKeyTests).
        #expect(
            spec.floors[0].problems.map(\.text) == [
                "floors[0].type: duplicate key 'type'; the last value is used",
                "floors[0].id: duplicate key 'id'; the last value is used",
            ])
        #expect(spec.next == nil)
    }

    /// A misfit `floors` or `next` followed by a good one is forgotten.
    @Test func laterGoodValueReplacesEarlierMisfit() throws {
        let spec = try scan(#"{"floors": 1, "next": 2, "floors": [], "next": "p2"}"#)
        #expect(spec.floors == [] && spec.next == "p2")
        #expect(
            spec.problems == [
                ScanProblem(
                    "floors", "duplicate key 'floors' in the page; the last value is used", at: 25, .warning, .ignored),
                ScanProblem(
                    "next", "duplicate key 'next' in the page; the last value is used", at: 39, .warning, .ignored),
            ])
    }

    /// Values of every JSON kind, anywhere the host does not read, are validated and skipped.
    @Test func otherValuesOfEveryKindAreSkipped() throws {
        let text =
            #"{"a": [1, -2.5e+3, 0.0, 1E-2, true, false, null, "s", {}, [], {"x": [{}]}], "floors": [{"type": "A", "extra": {"k": [null, {"z": "\u00e9"}]}}], "b": -0}"#
        let spec = try scan(text)
        #expect(spec.floors.map(\.type) == ["A"])
        #expect(slice(text, spec.floors[0]) == #"{"type": "A", "extra": {"k": [null, {"z": "\u00e9"}]}}"#)
    }
}

// MARK: - Byte ranges

struct PageScannerByteRangeTests {
    /// `bytes` is exactly the floor value: from its first byte to just after its last, no surrounding whitespace.
    @Test func rangesAreExactOffsets() throws {
        let text = #"{"floors":[{"type":"A"}, {"type":"B","id":2}]}"#
        let spec = try scan(text)
        #expect(spec.floors.map(\.bytes) == [11..<23, 25..<44])
    }

    /// Re-slicing the input at each range gives back each floor's JSON text, including nested values,
    /// multi-byte characters and escapes.
    @Test func reslicedBytesAreEachFloorsJSON() throws {
        let floors = [
            #"{"type": "Title", "title": "今日推荐 \"hot\"", "style": {"bold": true, "sizes": [12, 14.5]}}"#,
            #"{"pattern": "Focus", "items": [{"img": "a.png"}, {"img": "b.png"}], "id": 3}"#,
            #"{}"#,
            #"{"type": "😀\uD83D\uDE00", "id": "x"}"#,
        ]
        let text = "{\n  \"floors\": [\n    " + floors.joined(separator: ",\n    ") + "\n  ]\n}\n"
        let spec = try scan(text)
        #expect(spec.floors.map { slice(text, $0) } == floors)
    }

    /// Non-object floors get a range too, covering the whole value (string quotes included).
    @Test func nonObjectFloorsHaveRanges() throws {
        let text = page(floors: #"1.5e3, "x\"y", null, [1, [2]], true"#)
        let spec = try scan(text)
        #expect(spec.floors.map { slice(text, $0) } == ["1.5e3", #""x\"y""#, "null", "[1, [2]]", "true"])
    }

    /// Offsets count a leading byte order mark: they index the data as given.
    @Test func rangesCountTheByteOrderMark() throws {
        let body = #"{"floors":[{"type":"A"}]}"#
        let spec = try PageScanner.scan([0xEF, 0xBB, 0xBF] + Array(body.utf8))
        #expect(spec.floors[0].bytes == 14..<26)
    }
}

// MARK: - next

struct PageScannerNextTests {
    @Test func nextString() throws {
        #expect(try scan(#"{"floors": [], "next": "pages/p2.json"}"#).next == "pages/p2.json")
    }

    @Test func nextNull() throws {
        #expect(try scan(#"{"next": null, "floors": []}"#).next == nil)
    }

    @Test func nextAbsent() throws {
        #expect(try scan(#"{"floors": []}"#).next == nil)
    }

    @Test func nextWithEscapes() throws {
        #expect(try scan(#"{"floors": [], "next": "a\/b\u00e9.json"}"#).next == "a/bé.json")
    }

    /// `next` of any other kind is a page-shape error at the value.
    @Test func nextOfAnotherKindIsAnError() {
        expectError(
            #"{"floors": [], "next": 2}"#, line: 1, column: 24, offset: 23,
            "'next' must be a string or null, found number")
        expectError(
            #"{"floors": [], "next": false}"#, line: 1, column: 24, "'next' must be a string or null, found boolean")
        expectError(
            #"{"floors": [], "next": ["p2"]}"#, line: 1, column: 24, "'next' must be a string or null, found array")
        expectError(
            #"{"floors": [], "next": {}}"#, line: 1, column: 24, "'next' must be a string or null, found object")
    }
}

// MARK: - Page-shape errors

struct PageScannerShapeErrorTests {
    /// The top level must be an object; the error points at the value's first byte.
    @Test func topLevelNotAnObject() {
        expectError("[1, 2]", line: 1, column: 1, offset: 0, "the page must be a JSON object, found array")
        expectError("\n\n  \"page\"", line: 3, column: 3, offset: 4, "the page must be a JSON object, found string")
        expectError("null", line: 1, column: 1, "the page must be a JSON object, found null")
        expectError("-1.5", line: 1, column: 1, "the page must be a JSON object, found number")
        expectError(" true ", line: 1, column: 2, "the page must be a JSON object, found boolean")
    }

    /// An object without `floors` is an error pointing at the object's `{`.
    @Test func noFloors() {
        expectError("{}", line: 1, column: 1, offset: 0, "the page has no 'floors' array")
        expectError("\n {\"next\": \"p2.json\"}", line: 2, column: 2, offset: 2, "the page has no 'floors' array")
        expectError(#"{"Floors": []}"#, line: 1, column: 1, "the page has no 'floors' array")
    }

    /// `floors` of another kind is an error pointing at the value.
    @Test func floorsNotAnArray() {
        expectError(#"{"floors": {}}"#, line: 1, column: 12, offset: 11, "'floors' must be an array, found object")
        expectError(#"{"floors": null}"#, line: 1, column: 12, "'floors' must be an array, found null")
        expectError(#"{"floors": "[]"}"#, line: 1, column: 12, "'floors' must be an array, found string")
        expectError(
            #"{"floors": [], "floors": 1}"#, line: 1, column: 26, offset: 25, "'floors' must be an array, found number")
    }

    /// With several shape errors, `floors` is reported first.
    @Test func floorsErrorComesBeforeNextError() {
        expectError(#"{"floors": 1, "next": 1}"#, line: 1, column: 12, "'floors' must be an array")
        expectError(#"{"next": 1}"#, line: 1, column: 1, "the page has no 'floors' array")
    }

    /// Malformed JSON anywhere is reported before a shape error, even when the shape error comes first in the text.
    @Test func syntaxErrorsWinOverShapeErrors() {
        expectError(#"{"floors": 1, "x": tru}"#, line: 1, column: 23, "invalid literal, expected 'true'")
        expectError(
            "[1,]", line: 1, column: 4,
            "trailing comma before ']': JSON allows no ',' after the last element; delete that ','")
        expectError(#"{"next": 1, "x": [}"#, line: 1, column: 19, "expected a value, found '}'")
        expectError(#""abc"#, line: 1, column: 1, "unterminated string")
    }

    /// The description is "line:column: message", ready to follow a file name.
    @Test func descriptionFormat() throws {
        let error = try #require(scanError("{}"))
        #expect(error.description == "1:1: the page has no 'floors' array")
    }
}

// MARK: - Floor problems

struct PageScannerFloorProblemTests {
    /// A non-string `type` is a problem naming the path and what was found; the floor is still listed.
    @Test func typeNotAString() throws {
        let spec = try scan(
            page(floors: #"{"type": 3}, {"type": null}, {"type": {}}, {"type": ["A"]}, {"type": false}"#))
        #expect(spec.floors.map(\.type) == [nil, nil, nil, nil, nil])
        #expect(
            spec.floors.map { $0.problems.map(\.text) } == [
                ["floors[0].type: must be a string, found number"],
                ["floors[1].type: must be a string, found null"],
                ["floors[2].type: must be a string, found object"],
                ["floors[3].type: must be a string, found array"],
                ["floors[4].type: must be a string, found boolean"],
            ])
    }

    /// A bad `type` is not replaced by a good `pattern`: present-but-wrong `type` is reported.
    @Test func badTypeIsNotRescuedByPattern() throws {
        let spec = try scan(page(floors: #"{"type": 3, "pattern": "Focus"}"#))
        #expect(spec.floors[0].type == nil)
        #expect(spec.floors[0].problems.map(\.text) == ["floors[0].type: must be a string, found number"])
    }

    /// Without `type`, a non-string `pattern` is reported under its own name.
    @Test func patternNotAString() throws {
        let spec = try scan(page(floors: #"{"pattern": []}"#))
        #expect(spec.floors[0].type == nil)
        #expect(spec.floors[0].problems.map(\.text) == ["floors[0].pattern: must be a string, found array"])
    }

    @Test func noTypeAtAll() throws {
        let spec = try scan(page(floors: #"{"id": "x"}, {}"#))
        #expect(
            spec.floors.map { $0.problems.map(\.text) } == [["floors[0]: has no 'type'"], ["floors[1]: has no 'type'"]])
        #expect(spec.floors[0].id == "x")
    }

    /// A floor that is not an object is a problem, with its position and kind.
    @Test func floorNotAnObject() throws {
        let spec = try scan(page(floors: #"1, "x", null, [], true, {"type": "A"}"#))
        #expect(spec.floors.map(\.index) == [0, 1, 2, 3, 4, 5])
        #expect(
            spec.floors.map { $0.problems.map(\.text) } == [
                ["floors[0]: must be an object, found number"],
                ["floors[1]: must be an object, found string"],
                ["floors[2]: must be an object, found null"],
                ["floors[3]: must be an object, found array"],
                ["floors[4]: must be an object, found boolean"],
                [],
            ])
        #expect(spec.floors[5].type == "A")
    }

    /// `id` must be a string or an integer; fractions and exponents are not integers.
    @Test func idOfTheWrongKind() throws {
        let spec = try scan(
            page(
                floors:
                    #"{"type":"A","id":1.5}, {"type":"A","id":1e3}, {"type":"A","id":true}, {"type":"A","id":null}, {"type":"A","id":{}}"#
            ))
        #expect(spec.floors.map(\.id) == [nil, nil, nil, nil, nil])
        #expect(
            spec.floors.map { $0.problems.map(\.text) } == [
                ["floors[0].id: must be a string or an integer, found a non-integer number"],
                ["floors[1].id: must be a string or an integer, found a non-integer number"],
                ["floors[2].id: must be a string or an integer, found boolean"],
                ["floors[3].id: must be a string or an integer, found null"],
                ["floors[4].id: must be a string or an integer, found object"],
            ])
        #expect(spec.floors.allSatisfy { $0.type == "A" })
    }

    /// A floor can have a type problem and an id problem at once, in that order.
    @Test func typeAndIdProblemsTogether() throws {
        let spec = try scan(page(floors: #"{"id": false}"#))
        #expect(
            spec.floors[0].problems.map(\.text) == [
                "floors[0]: has no 'type'", "floors[0].id: must be a string or an integer, found boolean",
            ])
    }
}

// MARK: - Malformed JSON

struct PageScannerSyntaxErrorTests {
    /// The same page the CLI test uses: a trailing comma in an object, on line 3.
    @Test func trailingCommaInObject() {
        expectError(
            "{\n  \"floors\": [\n    {\"type\": \"Title\", \"title\": \"x\",}\n  ]\n}\n",
            line: 3, column: 36, offset: 51,
            "trailing comma before '}': JSON allows no ',' after the last member; delete that ','")
    }

    /// A comma followed by something else than a key is not called a trailing comma.
    @Test func aCommaBeforeANonKeyIsNotATrailingComma() {
        expectError(#"{"floors": [], 5}"#, line: 1, column: 16, "expected a string key after ',', found '5'")
    }

    @Test func trailingCommaInArray() {
        expectError(
            #"{"floors": [{"type": "A"},]}"#, line: 1, column: 27, offset: 26,
            "trailing comma before ']': JSON allows no ',' after the last element; delete that ','")
        expectError(
            "{\"floors\": [1,\n   ]}", line: 2, column: 4,
            "trailing comma before ']': JSON allows no ',' after the last element; delete that ','")
        expectError(#"{"floors": [{"type": "A"},,]}"#, line: 1, column: 27, "expected a value, found ','")
    }

    @Test func missingColon() {
        expectError(
            "{\"floors\": [\n  {\"type\" \"A\"}\n]}", line: 2, column: 11, offset: 23,
            "expected ':' after object key, found '\"'")
    }

    @Test func missingCommaOrCloser() {
        expectError(
            #"{"floors": [{"a":1 "b":2}]}"#, line: 1, column: 20, "expected ',' or '}' after object member, found '\"'")
        expectError(#"{"floors": [1 2]}"#, line: 1, column: 15, "expected ',' or ']' after array element, found '2'")
        expectError(
            #"{"floors": [{"type": "A"}}"#, line: 1, column: 26, "expected ',' or ']' after array element, found '}'")
        expectError(
            #"{"floors": [{"type": "A"}]"#, line: 1, column: 27, offset: 26,
            "expected ',' or '}' after object member, found end of input")
    }

    @Test func keysMustBeDoubleQuotedStrings() {
        expectError("{'floors': []}", line: 1, column: 2, "expected a string key or '}', found '''")
        expectError(#"{"floors": [{,}]}"#, line: 1, column: 14, "expected a string key or '}', found ','")
        expectError(#"{floors: []}"#, line: 1, column: 2, "expected a string key or '}', found 'f'")
    }

    /// An unterminated string is reported at its opening quote.
    @Test func unterminatedString() {
        expectError(#"{"floors": [{"type": "Title"#, line: 1, column: 22, offset: 21, "unterminated string")
        expectError(#"{"floors": [{"type": "a\"#, line: 1, column: 22, "unterminated string")
        expectError(#"{"floors": [{"type": "\u12"#, line: 1, column: 22, "unterminated string")
    }

    /// A raw line break inside a string is reported at the break, on the line where the string started.
    @Test func rawNewlineInString() {
        expectError(
            "{\"floors\": [\n  {\"type\": \"Title}\n]}", line: 2, column: 19, offset: 31,
            "line break inside a string (missing closing '\"'?)")
        expectError("{\"floors\": [{\"type\": \"Ti\r\ntle\"}]}", line: 1, column: 25, "line break inside a string")
    }

    /// Other control characters must be escaped in strings.
    @Test func rawControlCharacterInString() {
        expectError(
            "{\"floors\": [{\"type\": \"a\tb\"}]}", line: 1, column: 24, offset: 23,
            "control character U+0009 must be escaped in strings")
        expectError(
            "{\"floors\": [{\"type\": \"a\u{1F}\"}]}", line: 1, column: 24, "control character U+001F must be escaped")
        expectError(
            "{\"floors\": [{\"type\": \"\u{0}\"}]}", line: 1, column: 23, "control character U+0000 must be escaped")
    }

    /// DEL (U+007F) is not a JSON control character: it may stand unescaped.
    @Test func delIsAllowedInStrings() throws {
        #expect(try scan(page(floors: "{\"type\": \"a\u{7F}b\"}")).floors[0].type == "a\u{7F}b")
    }

    /// Bad escapes are reported at the backslash.
    @Test func badEscapes() {
        expectError(
            #"{"floors": [{"type": "a\qb"}]}"#, line: 1, column: 24, offset: 23, #"invalid escape '\q' in string"#)
        expectError(
            #"{"floors": [{"type": "a\u12x4"}]}"#, line: 1, column: 24, #"invalid \u escape: expected 4 hex digits"#)
        expectError(
            #"{"floors": [{"type": "a\ b"}]}"#, line: 1, column: 24,
            #"invalid escape: '\' followed by U+0020 in string"#)
        expectError(
            #"{"floors": [{"type": "a\é"}]}"#, line: 1, column: 24,
            #"invalid escape: '\' followed by 'é' (U+00E9) in string"#)
        expectError(#"{"floors": [{"type": "\U0041"}]}"#, line: 1, column: 23, #"invalid escape '\U' in string"#)
    }

    /// RFC 8259 numbers only: no leading zeros, digits on both sides of '.', a digit after 'e', no '+' sign.
    @Test(arguments: [
        ("01", 20, "leading zeros are not allowed in numbers"),
        ("-01", 21, "leading zeros are not allowed in numbers"),
        ("00", 20, "leading zeros are not allowed in numbers"),
        ("1.", 21, "expected a digit after '.', found '}'"),
        ("1.e5", 21, "expected a digit after '.', found 'e'"),
        (".5", 19, "expected a value, found '.'"),
        ("+1", 19, "expected a value, found '+'"),
        ("-", 20, "expected a digit after '-', found '}'"),
        ("-a", 20, "expected a digit after '-', found 'a'"),
        ("1e", 21, "expected a digit in the exponent, found '}'"),
        ("1.5e+", 24, "expected a digit in the exponent, found '}'"),
        ("0x1F", 20, "expected ',' or '}' after object member, found 'x'"),
        ("1_000", 20, "expected ',' or '}' after object member, found '_'"),
        ("NaN", 19, "expected a value, found 'N'"),
        ("Infinity", 19, "expected a value, found 'I'"),
    ])
    func badNumbers(number: String, column: Int, message: String) {
        expectError(#"{"floors": [{"n": "# + number + "}]}", line: 1, column: column, message)
    }

    /// Every valid number form is accepted, including as an `id` only the integer ones.
    @Test func goodNumbers() throws {
        let numbers = [
            "0", "-0", "7", "-12", "0.5", "-0.0", "1e5", "1E5", "1e+5", "1e-5", "2.5E-10",
            "123456789012345678901234567890",
        ]
        let spec = try scan(page(floors: numbers.map { #"{"type": "A", "n": \#($0)}"# }.joined(separator: ",")))
        #expect(spec.floors.count == numbers.count)
    }

    /// Literals are lower-case and complete; the error points at the first wrong byte.
    @Test func badLiterals() {
        expectError(#"{"floors": [{"ok": tru}]}"#, line: 1, column: 23, offset: 22, "invalid literal, expected 'true'")
        expectError(#"{"floors": [{"ok": nul}]}"#, line: 1, column: 23, "invalid literal, expected 'null'")
        expectError(#"{"floors": [{"ok": falsy}]}"#, line: 1, column: 24, "invalid literal, expected 'false'")
        expectError(#"{"floors": [{"ok": True}]}"#, line: 1, column: 20, "expected a value, found 'T'")
        expectError(
            #"{"floors": [{"ok": nulll}]}"#, line: 1, column: 24, "expected ',' or '}' after object member, found 'l'")
        expectError("{\"floors\": [], \"ok\": t", line: 1, column: 23, offset: 22, "invalid literal, expected 'true'")
    }

    /// Anything but whitespace after the page object is an error at its first byte.
    @Test func trailingGarbage() {
        expectError(#"{"floors": []} x"#, line: 1, column: 16, offset: 15, "unexpected 'x' after the top-level value")
        expectError("{\"floors\": []}\n{}", line: 2, column: 1, "unexpected '{' after the top-level value")
        expectError(#"{"floors": []}]"#, line: 1, column: 15, "unexpected ']' after the top-level value")
        expectError("{\"floors\": []}\u{0}", line: 1, column: 15, "unexpected U+0000 after the top-level value")
        expectError(
            Array(#"{"floors": []}"#.utf8) + [0xFF], line: 1, column: 15, offset: 14,
            "unexpected byte 0xFF after the top-level value")
        expectError(
            "{\"floors\": []}\u{A0}", line: 1, column: 15, "unexpected '\u{A0}' (U+00A0) after the top-level value")
    }

    /// Trailing whitespace is not garbage.
    @Test func trailingWhitespaceIsFine() throws {
        #expect(try scan("{\"floors\": []} \r\n\t\n").floors.isEmpty)
    }

    /// Empty input, or only whitespace, is "the page is empty" at the end of the data.
    @Test func emptyInput() throws {
        expectError([], line: 1, column: 1, offset: 0, "the page is empty")
        expectError(" \r\n\t", line: 2, column: 2, offset: 4, "the page is empty")
        let error = try #require(scanError([]))
        #expect(error == PageSyntaxError(offset: 0, line: 1, column: 1, message: "the page is empty"))
    }

    /// The raw-buffer entry point handles a buffer without a base address.
    @Test func emptyRawBuffer() {
        #expect(throws: PageSyntaxError(offset: 0, line: 1, column: 1, message: "the page is empty")) {
            try PageScanner.scan(UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }

    /// Unexpected end of input inside a structure names "end of input" at the data's length.
    @Test func truncatedInput() {
        expectError(#"{"floors": ["#, line: 1, column: 13, offset: 12, "expected a value, found end of input")
        expectError(#"{"floors""#, line: 1, column: 10, "expected ':' after object key, found end of input")
        expectError(#"{"floors":"#, line: 1, column: 11, "expected a value, found end of input")
        expectError("{", line: 1, column: 2, "expected a string key or '}', found end of input")
    }

    /// Columns count Unicode scalars, not bytes: each CJK character before the error is one column.
    @Test func columnsCountScalarsNotBytes() {
        expectError(#"{"floors": [{"type": "楼层",}]}"#, line: 1, column: 27, offset: 30, "trailing comma before '}'")
        expectError(#"{"floors": [{"type": "😀",}]}"#, line: 1, column: 26, offset: 28, "trailing comma before '}'")
    }

    /// Lines end at "\n" only: "\r\n" counts once, and the "\r" is not a line of its own.
    @Test func crlfCountsAsOneLineBreak() {
        expectError(
            "{\r\n  \"floors\": [\r\n    {\"type\": 1,}\r\n  ]\r\n}", line: 3, column: 16, offset: 33,
            "trailing comma before '}'")
    }

    /// A non-ASCII character outside a string is named with its code point.
    @Test func nonASCIIOutsideStrings() {
        expectError(#"{"floors": [中]}"#, line: 1, column: 13, offset: 12, "expected a value, found '中' (U+4E2D)")
        expectError(
            "{\"floors\": [{\"type\": \"x\"}], \u{201C}next\u{201D}: 1}", line: 1, column: 29,
            "expected a string key after ',', found '\u{201C}' (U+201C)")
    }
}

// MARK: - UTF-8 and the byte order mark

struct PageScannerEncodingTests {
    /// Invalid UTF-8 inside a string is an error at the sequence's first byte: lone continuation bytes,
    /// overlong forms, encoded surrogates, code points above U+10FFFF, truncated sequences, bad lead bytes.
    @Test(
        arguments: [
            [0x80],
            [0xBF],
            [0xC0, 0x80],
            [0xC1, 0xBF],
            [0xE0, 0x80, 0x80],
            [0xED, 0xA0, 0x80],
            [0xF0, 0x80, 0x80, 0x80],
            [0xF4, 0x90, 0x80, 0x80],
            [0xF5, 0x80, 0x80, 0x80],
            [0xE4, 0xB8],
            [0xE4, 0x41, 0x42],
            [0xFE],
            [0xFF],
        ] as [[UInt8]])
    func invalidUTF8InString(sequence: [UInt8]) {
        let bytes = Array(#"{"floors": [], "x": "a"#.utf8) + sequence + Array(#"b"}"#.utf8)
        expectError(bytes, line: 1, column: 23, offset: 22, "invalid UTF-8 in string")
    }

    /// A truncated multi-byte sequence at the very end of the data is invalid UTF-8, not a crash.
    @Test func truncatedUTF8AtEndOfData() {
        expectError(
            Array(#"{"floors": [], "x": ""#.utf8) + [0xF0, 0x9F, 0x98], line: 1, column: 22, offset: 21,
            "invalid UTF-8 in string")
    }

    /// Well-formed UTF-8 of every length, up to U+10FFFF, is accepted (including noncharacters).
    @Test func validUTF8OfEveryLength() throws {
        let type = "é中😀\u{10FFFF}\u{FFFF}\u{7FF}\u{800}"
        let spec = try scan(page(floors: #"{"type": "\#(type)"}"#))
        #expect(spec.floors[0].type == type)
    }

    /// A UTF-8 BOM at the start is skipped; line 1's columns start after it.
    @Test func leadingBOMIsSkipped() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let spec = try PageScanner.scan(bom + Array(#"{"floors": [{"type": "A"}], "next": "p2"}"#.utf8))
        #expect(spec.floors.map(\.type) == ["A"])
        #expect(spec.next == "p2")
        expectError(bom + Array(#"{"floors": x}"#.utf8), line: 1, column: 12, offset: 14, "expected a value, found 'x'")
        expectError(
            bom + Array("{\n\"floors\": x}".utf8), line: 2, column: 11, offset: 15, "expected a value, found 'x'")
    }

    /// A BOM alone is an empty page.
    @Test func bomOnlyIsEmpty() {
        expectError([0xEF, 0xBB, 0xBF], line: 1, column: 1, offset: 3, "the page is empty")
    }

    /// Only one BOM, only at the start: a second one, or one elsewhere, is an unexpected character.
    @Test func bomElsewhereIsAnError() {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        expectError(
            bom + bom + Array(#"{"floors": []}"#.utf8), line: 1, column: 1, offset: 3,
            "expected a value, found '\u{FEFF}' (U+FEFF)")
        expectError(
            Array(#"{"floors": []}"#.utf8) + bom, line: 1, column: 15, offset: 14,
            "unexpected '\u{FEFF}' (U+FEFF) after the top-level value")
        expectError(
            Array(" ".utf8) + bom + Array(#"{"floors": []}"#.utf8), line: 1, column: 2,
            "expected a value, found '\u{FEFF}'")
    }

    /// The first two bytes of a BOM are not a BOM.
    @Test func partialBOMIsAnError() {
        expectError(
            [0xEF, 0xBB] + Array(#"{"floors": []}"#.utf8), line: 1, column: 1, offset: 0,
            "expected a value, found byte 0xEF")
    }
}

// MARK: - Nesting depth

struct PageScannerDepthTests {
    private static let prefix = #"{"floors": [], "deep": "#  // 23 bytes; the page object is level 1

    private static func nested(_ levels: Int) -> String {
        String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
    }

    /// 512 levels in all (the page object plus 511 arrays) is accepted.
    @Test func depth512IsAccepted() throws {
        #expect(try scan(Self.prefix + Self.nested(511) + "}").floors.isEmpty)
    }

    /// Level 513 is an error at the bracket that opens it.
    @Test func depth513IsRejected() {
        let offset = Self.prefix.utf8.count + 511
        expectError(
            Self.prefix + Self.nested(512) + "}", line: 1, column: offset + 1, offset: offset,
            "nesting deeper than 512 levels")
    }

    /// Inside a floor: page (1), floors (2) and the floor (3) count too.
    @Test func depthInsideAFloor() throws {
        let floorPrefix = #"{"floors": [{"type": "A", "x": "#
        let ok = floorPrefix + Self.nested(509) + "}]}"
        let spec = try scan(ok)
        #expect(spec.floors[0].type == "A")
        #expect(slice(ok, spec.floors[0]) == #"{"type": "A", "x": "# + Self.nested(509) + "}")
        expectError(
            floorPrefix + Self.nested(510) + "}]}", line: 1, column: floorPrefix.utf8.count + 510,
            "nesting deeper than 512 levels")
    }

    /// A non-object top level obeys the same limit (and is then a shape error, not a nesting error).
    @Test func depthOfANonObjectPage() {
        expectError(Self.nested(512), line: 1, column: 1, "the page must be a JSON object, found array")
        expectError(Self.nested(513), line: 1, column: 513, offset: 512, "nesting deeper than 512 levels")
    }

    /// Deeply unclosed input fails at the limit, not with a crash or a stack overflow.
    @Test func hugeUnclosedNesting() {
        expectError(String(repeating: "[", count: 100_000), line: 1, column: 513, "nesting deeper than 512 levels")
        expectError(
            String(repeating: #"{"a":"#, count: 100_000), line: 1, column: 512 * 5 + 1, "nesting deeper than 512 levels"
        )
    }

    /// Objects and arrays alternate over the whole depth (crossing the 64-level words of the scanner's
    /// bookkeeping): matching closers are accepted, and a closer of the wrong kind at any depth is rejected.
    @Test func alternatingContainersAcrossManyLevels() throws {
        // Levels 2...512 below the page object: even levels are objects `{"a":`, odd ones arrays `[`.
        let levels = Array(2...512)
        let openers = levels.map { $0 % 2 == 0 ? #"{"a":"# : "[" }
        let closers = levels.reversed().map { $0 % 2 == 0 ? "}" : "]" }
        let build = { (closers: [String]) in Self.prefix + openers.joined() + "0" + closers.joined() + "}" }
        #expect(try scan(build(closers)).floors.isEmpty)
        for depth in [2, 63, 64, 65, 128, 129, 300, 511, 512] {
            var wrong = closers
            let index = closers.count - 1 - levels.firstIndex(of: depth)!
            wrong[index] = wrong[index] == "}" ? "]" : "}"
            let error = scanError(build(wrong))
            #expect(
                error?.message.hasPrefix("expected ',' or '") == true, "depth \(depth): \(String(describing: error))")
        }
    }
}

// MARK: - Differential test against JSONSerialization

/// Random page-shaped JSON documents (valid by construction), and single-byte mutations of them
/// (mostly invalid, sometimes still valid, sometimes valid JSON of another shape).
private struct PageGenerator {
    var random: SeededRandom

    mutating func pick<T>(_ options: [T]) -> T { options.randomElement(using: &random)! }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    mutating func whitespace() -> String { chance(60) ? "" : pick([" ", "\n", "\r\n", "\t", "  "]) }

    /// Numbers from the JSON grammar; exponents have one digit so a mutation cannot overflow a Double.
    mutating func number() -> String {
        var text = chance(30) ? "-" : ""
        text += chance(20) ? "0" : String(int(1...999))
        if chance(30) { text += "." + String(int(0...99)) }
        if chance(20) { text += pick(["e", "E"]) + pick(["", "+", "-"]) + String(int(0...9)) }
        return text
    }

    /// Strings mixing ASCII, CJK, emoji, DEL and escapes (no surrogate escapes: see `foundationDisagrees`).
    mutating func string() -> String {
        let pieces = [
            "a", "Z", " ", "'", "type", "楼层", "商品", "😀", "é", "\u{7F}",
            #"\n"#, #"\""#, #"\\"#, #"\/"#, #"\t"#, #"\u00e9"#, #"\u4E2D"#,
        ]
        return "\"" + (0..<int(0...6)).map { _ in pick(pieces) }.joined() + "\""
    }

    mutating func value(depth: Int) -> String {
        switch int(0...(depth > 3 ? 4 : 6)) {
        case 0: return pick(["null", "true", "false"])
        case 1, 2: return number()
        case 3, 4: return string()
        case 5:
            let items = (0..<int(0...3)).map { _ in whitespace() + value(depth: depth + 1) + whitespace() }
            return "[" + (items.isEmpty ? whitespace() : items.joined(separator: ",")) + "]"
        default:
            return object(depth: depth + 1, members: [])
        }
    }

    /// An object with the given members plus up to three random ones (distinct keys), in random order.
    mutating func object(depth: Int, members fixed: [(key: String, value: String)]) -> String {
        var members = fixed
        for k in 0..<int(0...3) { members.append(("\"k\(k)\"", value(depth: depth))) }
        members.shuffle(using: &random)
        let parts = members.map { whitespace() + $0.key + whitespace() + ":" + whitespace() + $0.value + whitespace() }
        return "{" + (parts.isEmpty ? whitespace() : parts.joined(separator: ",")) + "}"
    }

    mutating func page() -> String {
        let floors = (0..<int(0...4)).map { _ -> String in
            var members = [(key: "\"type\"", value: string())]
            if chance(70) { members.append(("\"id\"", chance(50) ? string() : String(int(0...99)))) }
            return whitespace() + object(depth: 3, members: members) + whitespace()
        }
        var members = [(key: "\"floors\"", value: "[" + floors.joined(separator: ",") + "]")]
        if chance(50) { members.append(("\"next\"", chance(50) ? "null" : string())) }
        return whitespace() + object(depth: 1, members: members) + whitespace()
    }

    /// Bytes a mutation may insert: JSON punctuation, digits, letters of literals, whitespace, controls,
    /// and bytes that break UTF-8.
    static let mutationBytes =
        Array(#"{}[],:"\0123-+.eEtfnux "#.utf8) + [0x0A, 0x09, 0x01, 0x1F, 0x7F, 0x80, 0xC3, 0xE4, 0xFF]

    /// Deletes, inserts or replaces one byte, or truncates.
    mutating func mutate(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        let position = int(0...bytes.count)
        switch int(0...3) {
        case 0 where position < bytes.count: bytes.remove(at: position)
        case 1: bytes.insert(pick(Self.mutationBytes), at: position)
        case 2 where position < bytes.count: bytes[position] = pick(Self.mutationBytes)
        default: bytes.removeSubrange(position...)
        }
        return bytes
    }
}

/// Documents where Foundation's JSONSerialization is known to depart from RFC 8259 or from the scanner's
/// documented choices, so comparing would only compare quirks (checked on this toolchain):
/// - trailing commas (`[1,]`, `{"a":1,}`): JSONSerialization accepts them;
/// - `\uD800`-style escapes: JSONSerialization rejects lone surrogates, the scanner accepts them by contract;
/// - exponents of three digits or more: JSONSerialization rejects numbers that overflow a Double;
/// - NUL bytes: JSONSerialization guesses UTF-16/32 from them.
private func foundationDisagrees(_ bytes: [UInt8]) -> Bool {
    let text = String(decoding: bytes, as: UTF8.self)
    return text.range(of: #",[ \t\r\n]*[\]}]"#, options: .regularExpression) != nil
        || text.range(of: #"\\u[dD][89a-fA-F]"#, options: .regularExpression) != nil
        || text.range(of: #"[eE][+-]?[0-9]{3}"#, options: .regularExpression) != nil
        || bytes.contains(0)
}

/// Messages of errors about the page's shape (as opposed to malformed JSON).
private let shapeMessages = [
    "the page must be a JSON object", "the page has no 'floors' array",
    "'floors' must be an array", "'next' must be a string or null",
]

/// Whether the scanner judged `bytes` to be valid JSON: accepted, or refused only for its shape.
private func scannerFindsValidJSON(_ bytes: [UInt8]) -> Bool {
    guard let error = scanError(bytes) else { return true }
    return shapeMessages.contains { error.message.hasPrefix($0) }
}

private func foundationFindsValidJSON(_ bytes: [UInt8]) -> Bool {
    (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
}

/// Canonical JSON text of a Foundation value, for comparing two parses.
private func canonical(_ value: Any) -> Data? {
    try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
}

struct PageScannerDifferentialTests {
    /// On 600 generated documents (about two thirds mutated), the scanner accepts exactly the documents
    /// JSONSerialization accepts. The generator is deterministic, so a failure reproduces on every run.
    @Test func acceptsExactlyWhatJSONSerializationAccepts() {
        var generator = PageGenerator(random: SeededRandom(state: 0x5EED_F100))
        var compared = 0
        var valid = 0
        var disagreements: [String] = []
        while compared < 600 {
            let original = Array(generator.page().utf8)
            let document = generator.chance(65) ? generator.mutate(original) : original
            if foundationDisagrees(document) { continue }
            compared += 1
            let scanner = scannerFindsValidJSON(document)
            let foundation = foundationFindsValidJSON(document)
            if scanner { valid += 1 }
            if scanner != foundation {
                disagreements.append(
                    "scanner \(scanner), JSONSerialization \(foundation): \(String(decoding: document, as: UTF8.self).debugDescription) \(String(describing: scanError(document)))"
                )
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, first: \(disagreements.prefix(3))")
        // Both outcomes are well represented, so the comparison means something.
        #expect(valid > 150 && valid < 450, "valid: \(valid) of \(compared)")
    }

    /// On generated (unmutated) pages, the scanner's shape matches JSONSerialization's parse: floor count,
    /// each floor's type and id, `next`, and each floor's bytes parse to the same value as the floor.
    @Test func extractedShapeMatchesJSONSerialization() throws {
        var generator = PageGenerator(random: SeededRandom(state: 0xF100_0002))
        var floorsSeen = 0
        for _ in 0..<200 {
            let text = generator.page()
            let bytes = Array(text.utf8)
            let spec = try PageScanner.scan(bytes)
            let page = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            let floors = try #require(page["floors"] as? [[String: Any]])
            #expect(spec.next == page["next"] as? String, "\(text)")
            #expect(spec.floors.count == floors.count, "\(text)")
            for (found, expected) in zip(spec.floors, floors) {
                floorsSeen += 1
                #expect(found.type == expected["type"] as? String, "\(text)")
                let id = (expected["id"] as? String) ?? (expected["id"] as? NSNumber).map { "\($0.intValue)" }
                #expect(found.id == id, "\(text)")
                #expect(found.problems.isEmpty, "\(text)")
                let reparsed = try JSONSerialization.jsonObject(with: Data(bytes[found.bytes]))
                #expect(canonical(reparsed) == canonical(expected), "\(text)")
            }
        }
        #expect(floorsSeen > 200)
    }
}
