import FloorCore
import FloorRuntime
import FloorSession
import Foundation
import Testing

/// Decoding a page reads each floor's bytes once: the page scan validates the floor, signs it and checks it
/// against its type's schema on one walk (FloorWalk), where the scanner, the signature and the validator
/// used to walk it one after the other.
struct OneWalkTests {
    /// The walks JSONWalkLog recorded over `range` of `bytes`.
    private func walks(_ log: JSONWalkLog, over range: Range<Int>, of bytes: [UInt8]) -> [JSONWalkLog.Walk] {
        bytes.withUnsafeBytes { raw in log.walks.filter { $0.overlaps(UnsafeRawBufferPointer(rebasing: raw[range])) } }
    }

    @Test func decodingAPageWithSchemasWalksEachFloorOnce() throws {
        let folder = try TemporaryFolder("onewalk")
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        #expect(
            host.registry.floorTypeNames.allSatisfy { name in
                host.registry.floorTypeID(named: name).map { host.registry.floorTypes[Int($0)].schema != nil } == true
            }, "every shipped floor type declares a schema")
        let page = #"""
            {"floors":[
              {"type":"Title","id":"t1","title":"Hello","subtitel":"typo"},
              {"type":"IconGrid","id":"g","columns":4,
               "items":[{"id":"i0","img":"a.png","title":"A","jump":{"url":"app://a"}}]},
              {"type":"ProductFeed","id":"feed","header":{"title":"Picks","sticky":true},"margin":{"top":8,"bottom":8},
               "items":[
                 {"id":"p0","title":"Tea","price":"¥3.50","img":"p0.jpg","jump":{"url":"app://p/0","eventId":"c"}},
                 {"id":"p1","title":"Cup","price":12.5,"img":"p1.jpg","jump":{"url":"app://p/1","eventId":"c"}}]},
              {"type":"Nope","id":"unknown-type"}
            ],"next":null}
            """#
        let bytes = Array(page.utf8)
        let spec = try PageScanner.scan(bytes)
        let log = JSONWalkLog()
        let decoded = try JSONWalkLog.$current.withValue(log) {
            try PageDecoder.decode(bytes: bytes, file: "p.json", registry: host.registry)
        }
        #expect(log.walks.count == 1 && log.walks.first?.what == "page scan", "\(log.walks)")
        for floor in spec.floors {
            #expect(walks(log, over: floor.bytes, of: bytes).count == 1, "floors[\(floor.index)]")
        }
        // The schema check still happened on that walk.
        #expect(decoded.diagnostics.map(\.path).contains("floors[0].subtitel"), "\(decoded.diagnostics.map(\.message))")
        #expect(decoded.sections.count == 4)
    }

    @Test func membersBeforeTypeAreTheOnlyBytesReadAgain() throws {
        let folder = try TemporaryFolder("onewalk")
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins(["Title"]))
        let page = #"{"floors":[{"id":"t1","subtitel":"x","type":"Title","title":"Hello"}]}"#
        let bytes = Array(page.utf8)
        let spec = try PageScanner.scan(bytes)
        let log = JSONWalkLog()
        let decoded = try JSONWalkLog.$current.withValue(log) {
            try PageDecoder.decode(bytes: bytes, file: "p.json", registry: host.registry)
        }
        let again = walks(log, over: spec.floors[0].bytes, of: bytes).filter { $0.what != "page scan" }
        #expect(again.map(\.count) == [#""id":"t1","subtitel":"x","#.utf8.count], "\(log.walks)")
        #expect(decoded.diagnostics.map(\.path) == ["floors[0].subtitel"], "\(decoded.diagnostics.map(\.message))")
    }

    /// The findings and the signature of the one walk are those of the validator and the signature on
    /// the floor alone, whatever the order of the floor's keys and whichever type it names.
    @Test func theWalkFindsWhatTheValidatorAloneFinds() throws {
        let declared = try DeclaredSchema.parse(SchemaValidatorTests.schema).get()
        let other = try DeclaredSchema.parse(#"{"type":"object","properties":{"count":{"type":"string"}}}"#).get()
        let schemas = ["T": declared.floorObject, "U": other.floorObject]
        for floor in [
            #"{"type":"T","id":1,"count":1.5,"cuont":1,"tags":["x",2],"items":[{"id":"a"}]}"#,
            #"{"id":"x","count":1.5,"type":"T","ratio":2,"extra":{"q":1},"cuont":1,"cuont":2}"#,
            #"{"pattern":"T","count":"s","type":"U","tags":[1]}"#,
            #"{"type":"T","count":0,"type":"U"}"#,
            #"{"t\u0079pe":"T","c\u006funt":"1","margin":{"top":-1},"header":{}}"#,
            #"{"type":5,"pattern":"T","count":1}"#,
            #"{"items":{"a":1},"type":"T"}"#,
        ] {
            let page = Array(#"{"floors":["#.utf8) + Array(floor.utf8) + Array("]}".utf8)
            let spec = try PageScanner.scan(page) { schemas[$0] }
            let scanned = spec.floors[0]
            let alone = page.withUnsafeBytes { raw in
                let bytes = UnsafeRawBufferPointer(rebasing: raw[scanned.bytes])
                return (
                    scanned.type.flatMap { schemas[$0] }.map {
                        SchemaValidator.validate(bytes, against: $0, typeName: scanned.type!)
                    },
                    FloorSignature(json: bytes)
                )
            }
            // The same findings, at the same bytes (the walk's offsets are the page's, the validator's the floor's).
            let shifted = alone.0?.map {
                var finding = $0
                finding.offset += scanned.bytes.lowerBound
                return finding
            }
            #expect(scanned.findings == shifted, "\(floor)")
            #expect(scanned.signature == alone.1, "\(floor)")
        }
    }

    /// Checked against their types' schemas (a key matched to a property takes the property's hash, and is
    /// looked for first after the previous member's), floors sign as the reference does: keys in the
    /// schema's order, out of it, escaped, and unknown.
    @Test func signaturesWithSchemasAreTheReferences() throws {
        let folder = try TemporaryFolder("onewalk-schemas")
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        let pages: [String] = [
            #"{"floors":[{"type":"ProductFeed","id":"f","items":["#
                + #"{"id":"a","title":"Tea","price":"¥1.00","img":"a.jpg"},"#
                + #"{"img":"b.jpg","price":"¥2.00","title":"Cup","id":"b"},"#
                + #"{"\u0069d":"c","t\u0069tle":"Pot","colour":"red","price":"¥3.00","img":"c.jpg"},"#
                + #"{"title":"x","title":"y","id":"d","price":"¥4.00","img":"d.jpg"}]}]}"#
        ]
        let checked = try expectReferenceSignatures(pages + Self.examplePages(), schemas: host.registry.floorSchemas)
        #expect(checked > 10)
    }

    /// The one walk's signatures are the old skim's, hash for hash.
    @Test func signaturesAreTheOldSkimsValueForValue() throws {
        var pages = [
            #"{"floors":[{"type":"F","id":"f","header":{"title":"H"},"#
                + #""items":[{"id":"x","v":1},{"id":7},{"v":2},{"id":"\u0079"},3,[],{"id":-1.5},{"id":true}]},"#
                + #" {"type":"T","title":"a\/b \u00e9\ud83d\ude00","margin":{"top":6,"bottom":0},"#
                + #""items":{"no":"array"},"n":[-0.5e+3,true,false,null,{}]},"#
                + #" "text", 12, [1,{"a":"b"}], {}, {"items":[]} ]}"#
        ]
        // Deeper than FloorWalk.recursionDepth: the rest is hashed without recursion, to the same values.
        let deep = String(repeating: #"{"a":[1,{},[],"s","#, count: 60) + "null" + String(repeating: "]}", count: 60)
        pages.append(#"{"floors":[{"type":"D","x":"# + deep + #","items":["# + deep + "," + deep + "]}," + deep + "]}")
        #expect(try expectReferenceSignatures(pages + Self.examplePages()) > 10)
    }

    /// Every page in Examples/.
    private static func examplePages() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: Repo.path("Examples")).sorted()
            .filter { $0.hasSuffix(".json") }
            .map { try String(contentsOfFile: Repo.path("Examples/" + $0), encoding: .utf8) }
    }

    /// Scans each page, checking its floors against `schemas` (when given, only the floors a schema checked
    /// count), and expects each floor to sign as the reference does, and as a walk of the floor alone does.
    /// Returns how many floors were compared.
    private func expectReferenceSignatures(_ pages: [String], schemas: [String: FloorSchema]? = nil) throws -> Int {
        var compared = 0
        for page in pages {
            let bytes = Array(page.utf8)
            let spec = try PageScanner.scan(bytes) { schemas?[$0] }
            bytes.withUnsafeBytes { raw in
                for floor in spec.floors where schemas == nil || floor.findings != nil {
                    let alone = UnsafeRawBufferPointer(rebasing: raw[floor.bytes])
                    #expect(
                        floor.signature == FloorSignature.reference(json: alone),
                        "\(String(decoding: alone, as: UTF8.self))")
                    #expect(FloorSignature(json: alone) == floor.signature)
                    compared += 1
                }
            }
        }
        return compared
    }

    /// The walk recurses per level of a floor (the cursor's limit bounds it before each level): the deepest
    /// floor a page may hold, objects and arrays alternating, with a schema riding along, fits a 512 KB stack
    /// (a secondary thread's on macOS; Linux gives 8 MB) in a debug build.
    @Test func theDeepestFloorFitsASmallStack() throws {
        let declared = try DeclaredSchema.parse(
            #"{"type":"object","properties":{"x":{"type":"array","items":{"type":"object"}}}}"#
        ).get()
        let levels = 3...512  // page (1), floors (2), the floor (3)
        let openers = levels.dropFirst().map { $0 % 2 == 0 ? "[" : #"{"x":"# }
        let closers = levels.dropFirst().reversed().map { $0 % 2 == 0 ? "]" : "}" }
        let page = Array((#"{"floors":[{"type":"T","x":"# + openers.joined() + "0" + closers.joined() + "}]}").utf8)
        nonisolated(unsafe) var result: Result<PageSpec, PageSyntaxError>?
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            result = Result { () throws(PageSyntaxError) -> PageSpec in
                try PageScanner.scan(page) { $0 == "T" ? declared.floorObject : nil }
            }
            done.signal()
        }
        thread.stackSize = 512 << 10
        thread.start()
        done.wait()
        let spec = try #require(try result?.get())
        #expect(spec.floors[0].findings == [] && spec.floors[0].type == "T")
    }
}
