import FloorCore

/// A floor object as found on the page, before any plugin has seen it.
package struct FloorSpec: Equatable, Sendable {
    /// Position in the page's `floors` array.
    package var index: Int
    /// From `type`, or from `pattern` (an older CMS name) when `type` is absent; nil when neither holds a string.
    package var type: String?
    /// From `id`: a string, or an integer (no fraction, no exponent) kept as its decimal text; nil otherwise.
    package var id: String?
    /// Byte range of the whole floor value (`{...}`, or whatever non-object stood there) in the page data.
    /// The plugin decodes exactly these bytes.
    package var bytes: Range<Int>
    /// Shape problems of this floor, each naming its JSON path ("floors[3].type must be a string, found number").
    /// A floor with problems is still listed, so the host can report it in place and render the rest.
    package var problems: [ScanProblem]
    /// The floor's signature, computed on the scanner's walk of the floor.
    package var signature = FloorSignature()
    /// The floor against the schema of its type, checked on the same walk: nil when the scan was given no
    /// schema for the type (or the floor has none).
    package var findings: [SchemaFinding]? = nil
    /// The common fields `layout` and `columns` as written (ABI 1.5; CollectionLayout resolves them).
    package var collection = CollectionRequest()
    /// The floor's strings that hold U+0000, which a plugin before ABI 1.5 (NUL-terminated strings) would
    /// cut there: their JSON paths and offsets in the page.
    package var stringsWithNUL: [StringWithNUL] = []
    /// Where the floor's bytes end, as a streamed scan counted them (nil from any other scan): whoever
    /// positions what is said of the floor goes on from there without counting the bytes again
    /// (PageDiagnostics.resolve).
    package var end: SourcePosition? = nil

    package struct StringWithNUL: Equatable, Sendable {
        package var path: String
        package var offset: Int
    }
}

/// The shape of a page: where its floors are, and where the next page is.
package struct PageSpec: Equatable, Sendable {
    package var floors: [FloorSpec]
    /// The next page's location relative to this page's file; nil when `next` is absent or null.
    package var next: String?
    /// The page's `title` (what a preview shows above the floors); nil when absent, null or not a string.
    package var title: String? = nil
    /// Problems of the page object itself that do not make it unusable (a repeated key), each starting
    /// with its JSON path.
    package var problems: [ScanProblem] = []

    package init(floors: [FloorSpec], next: String?, title: String? = nil, problems: [ScanProblem] = []) {
        self.floors = floors
        self.next = next
        self.title = title
        self.problems = problems
    }
}

/// Unusable input: not JSON, or not the page shape (not an object, no `floors`, `floors` not an array,
/// `next` neither a string nor null). Made by the cursor the scanner reads with.
package typealias PageSyntaxError = JSONSyntaxError

/// Reads a page's bytes and returns the page's shape without building a DOM: the whole document is validated
/// as JSON (RFC 8259), but only the strings the host needs are decoded (top-level and floor keys, and the
/// values of `type`, `pattern`, `id` and `next`). Each floor is read by one walk (FloorWalk) that also signs
/// it and, given its type's schema, checks it; the rest of the page is skipped by the cursor. Plugins decode
/// each floor's own bytes later.
///
/// Contract:
/// - Input is UTF-8. A UTF-8 byte order mark at the very start is skipped; offsets still count it.
///   Invalid UTF-8 inside strings is an error (anywhere else, any non-ASCII byte already is one).
/// - Nesting deeper than `maxDepth` arrays/objects (the page object is level 1) is an error, not a crash.
/// - Keys are compared after unescaping (`"t\u0079pe"` is `type`). Duplicate keys: the last one wins, in the
///   page object (`floors`, `next`) and in each floor (`type`, `pattern`, `id`); earlier ones are still validated.
///   Any key repeated in the page object or in a floor object is a problem ("floors[1].title: duplicate key
///   'title'; the last value is used"), as plugins' decoders also use the last value.
/// - A floor without a string `type`/`pattern` or without a string/integer `id` gets a problem, not an error.
/// - Malformed JSON anywhere is reported before a page-shape error, so a shape error means the JSON is valid.
/// - A `\uD800`-style escape that is not half of a surrogate pair is valid JSON; in a decoded string it
///   becomes U+FFFD.
/// - Line and column are computed only when an error is thrown.
/// - Pure function of its input; safe to call from any thread.
package enum PageScanner {
    package static let maxDepth = JSONCursor.maxDepth

    /// Throws `PageSyntaxError`. `bytes` is only read during the call. `schemas`: the schema of a floor type
    /// by name, when there is one to check the floors of that type against (FloorSpec.findings) on the same
    /// walk that scans and signs them.
    package static func scan(_ bytes: UnsafeRawBufferPointer, schemas: (String) -> FloorSchema? = { _ in nil })
        throws(PageSyntaxError) -> PageSpec
    {
        var floors: [FloorSpec] = []
        var problems: [ScanProblem] = []
        var spec = try walk(bytes, schemas: schemas, counting: false) { found in
            switch found {
            case .floor(let floor): floors.append(floor)
            case .problem(let problem): problems.append(problem)
            case .floorsAgain: floors = []
            }
        }
        (spec.floors, spec.problems) = (floors, problems)
        return spec
    }

    /// What a streamed scan meets, in page order.
    package enum Found: Sendable {
        case floor(FloorSpec)
        /// A problem of the page object itself (PageSpec.problems).
        case problem(ScanProblem)
        /// Another `floors` array: the floors handed over before it are not the page's (the last one is).
        case floorsAgain
    }

    /// The same scan, handing each floor and each problem of the page object to `found` as the walk meets
    /// them, in page order, instead of keeping them: the PageSpec returned has neither (the scan above keeps
    /// what this hands over). Every byte up to the end of a floor handed over is counted before it is (lines
    /// and columns: FloorSpec.end), so the caller may hand those bytes back (PageBytes) while the scan goes
    /// on: an error found later still has its position.
    package static func scan(
        _ bytes: UnsafeRawBufferPointer, schemas: (String) -> FloorSchema?, found: (Found) -> Void
    ) throws(PageSyntaxError) -> PageSpec {
        try walk(bytes, schemas: schemas, counting: true, found: found)
    }

    /// One walk of the page, `counting` lines and columns as it goes (a streamed scan's) or not.
    private static func walk(
        _ bytes: UnsafeRawBufferPointer, schemas: (String) -> FloorSchema?, counting: Bool,
        found: (Found) -> Void
    ) throws(PageSyntaxError) -> PageSpec {
        guard let start = bytes.baseAddress, bytes.count > 0 else {
            throw PageSyntaxError(offset: 0, line: 1, column: 1, message: "the page is empty")
        }
        JSONWalkLog.record(start, count: bytes.count, "page scan")
        var walk = FloorWalk(JSONCursor(start, count: bytes.count))
        if counting { walk.counted = SourcePosition.Counter(bytes) }
        do throws(PageSyntaxError) {
            return try walk.page(schemas: schemas, found: found)
        } catch {
            throw walk.positioned(error)
        }
    }

    /// Throws `PageSyntaxError`.
    package static func scan(_ data: [UInt8], schemas: (String) -> FloorSchema? = { _ in nil }) throws(PageSyntaxError)
        -> PageSpec
    {
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(PageSyntaxError) -> PageSpec in try scan(bytes, schemas: schemas) }
        }
        return try result.get()
    }
}

/// The page object around the floors, on the same walk (FloorWalk reads the floors themselves).
extension FloorWalk {
    /// The page's floors and the page object's problems go to `found` as they are met, in page order; the
    /// PageSpec returned has neither.
    mutating func page(schemas: (String) -> FloorSchema?, found: (PageScanner.Found) -> Void)
        throws(PageSyntaxError) -> PageSpec
    {
        cursor.skipWhitespace()
        guard cursor.pos < cursor.count else { throw cursor.failure("the page is empty", at: cursor.pos) }
        let start = cursor.pos
        guard cursor.byte(start) == JSONByte.openBrace else {
            let kind = try cursor.skipValue()
            try cursor.expectEnd()
            throw cursor.failure("the page must be a JSON object, found \(kind.rawValue)", at: start)
        }
        // Whether a `floors` array was listed, and whether the last `floors` is one.
        var listedFloors = false
        var floorsListed = false
        // A misfit is positioned when it is met: by the end of the page, the bytes before it may be gone.
        var floorsMisfit: PageSyntaxError?
        var next: String?
        var nextMisfit: PageSyntaxError?
        var title: String?
        var keys = Set<String>()
        if try cursor.openObject() {
            repeat {
                let keyStart = cursor.pos
                let key = try cursor.key()
                if let repeated = repeated(key, in: &keys) {
                    found(
                        .problem(
                            ScanProblem(
                                repeated, "duplicate key '\(repeated)' in the page; the last value is used",
                                at: keyStart,
                                .warning, .ignored)))
                }
                let valueStart = cursor.pos
                if cursor.matches(key, "floors") {
                    if cursor.at(JSONByte.openBracket) {
                        if listedFloors { found(.floorsAgain) }
                        listedFloors = true
                        try floorList(schemas: schemas, found: found)
                        floorsListed = true
                        floorsMisfit = nil
                    } else {
                        let kind = try cursor.skipValue()
                        floorsMisfit = failure("'floors' must be an array, found \(kind.rawValue)", at: valueStart)
                        floorsListed = false
                    }
                } else if cursor.matches(key, "next") {
                    if cursor.at(JSONByte.quote) {
                        next = cursor.text(try cursor.string())
                        nextMisfit = nil
                    } else {
                        let kind = try cursor.skipValue()
                        next = nil
                        nextMisfit =
                            kind == .null
                            ? nil : failure("'next' must be a string or null, found \(kind.rawValue)", at: valueStart)
                    }
                } else if cursor.matches(key, "title") {
                    if cursor.at(JSONByte.quote) {
                        title = cursor.text(try cursor.string())
                    } else {
                        let kind = try cursor.skipValue()
                        title = nil
                        if kind != .null {
                            found(
                                .problem(
                                    ScanProblem(
                                        "title",
                                        "must be a string, found \(kind.rawValue); the page is shown without a title",
                                        at: valueStart, .error, .ignored)))
                        }
                    }
                } else {
                    _ = try cursor.skipValue()
                    if !cursor.matches(key, "$schema") {
                        found(.problem(PageFields.unknown(cursor.text(key), at: keyStart)))
                    }
                }
            } while try cursor.nextMember()
        }
        try cursor.expectEnd()
        if let floorsMisfit { throw floorsMisfit }
        guard floorsListed else { throw failure("the page has no 'floors' array", at: start) }
        if let nextMisfit { throw nextMisfit }
        return PageSpec(floors: [], next: next, title: title)
    }

    /// Precondition: at `[`. Each floor goes to `found`, the bytes up to its end counted first (`counted`).
    mutating func floorList(schemas: (String) -> FloorSchema?, found: (PageScanner.Found) -> Void)
        throws(PageSyntaxError)
    {
        var index = 0
        if try cursor.openArray() {
            repeat {
                var floor = try floor(index: index, schemas: schemas)
                index += 1
                floor.end = countedPosition(of: floor.bytes.upperBound)
                found(.floor(floor))
            } while try cursor.nextElement()
        }
    }

    /// Where `offset` is, counted on by `counted` (nil when the walk does not count, or has counted past it).
    mutating func countedPosition(of offset: Int) -> SourcePosition? {
        let bytes = UnsafeRawBufferPointer(start: cursor.raw, count: cursor.count)
        return counted?.position(of: offset, in: bytes)
    }

    /// An error at `offset`, positioned by `counted` when the walk counts (a streamed scan, whose bytes
    /// before the last floor handed over may be gone), else by the cursor.
    mutating func failure(_ message: String, at offset: Int) -> PageSyntaxError {
        guard let position = countedPosition(of: offset) else {
            return cursor.failure(message, at: offset)
        }
        return PageSyntaxError(offset: offset, line: position.line, column: position.column, message: message)
    }

    /// `error` (thrown by the cursor, at or after the floor being walked) positioned by `counted`, when the
    /// walk counts.
    mutating func positioned(_ error: PageSyntaxError) -> PageSyntaxError {
        guard let position = countedPosition(of: error.offset) else { return error }
        var positioned = error
        (positioned.line, positioned.column) = (position.line, position.column)
        return positioned
    }
}
