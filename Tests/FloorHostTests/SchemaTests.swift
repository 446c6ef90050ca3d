import FloorRuntime
import FloorSession
import Foundation
import Testing

/// Issue 12 A: each floor type declares a JSON Schema (ABI 1.3 `schema_json`), `floorhost schema` prints the
/// page's schema, and check/render hold every floor to its type's schema.
@Suite struct SchemaTests {
    /// A page with one mistake of each kind the schema catches, for the shipped plugins plus the C badge
    /// built WITH_SCHEMA (whose `tone`, `count` and `style` only the schema looks at; its decoder finds
    /// "text" only written without spaces).
    static let typoPage = #"""
        {"title": "Typos", "nxt": "home-2.json", "floors": [
          {"type": "IconGrid", "id": "channels", "colums": 5, "items": [{"id": "i1", "img": "a.png", "title": "A"}]},
          {"type":"Badge","id":"count","text":"x","count":"3"},
          {"type":"Badge","id":"style","text":"x","style":{}},
          {"type": "Focus", "id": "focus", "items": [{"id": "b1", "img": "b.png", "tittle": "Sale"}]},
          {"type":"Badge","id":"tone","text":"x","tone":"loud","count":120},
          {"type": "Title", "id": "t", "title": "T", "header": {"title": "H", "stiky": true}}
        ]}
        """#

    /// The problems `check` must report for typoPage, each with its path, its line:column and its message, in
    /// page order: every one an error (a near miss of a known field, a value the floor's type does not take),
    /// the field ignored.
    static let expectedProblems = [
        ("nxt", "1:20", "nxt: unknown field of the page; did you mean 'next'?"),
        (
            "floors[0].colums", "2:42",
            "floors[0].colums (floor 'channels'): unknown field of IconGrid; did you mean 'columns'?"
        ),
        ("floors[1].count", "3:43", "floors[1].count (floor 'count'): Badge expects an integer here, found a string"),
        (
            "floors[2].style.color", "4:52",
            "floors[2].style.color (floor 'style'): missing required field 'color' (a string) of Badge"
        ),
        (
            "floors[3].items[0].tittle", "5:75",
            "floors[3].items[0].tittle (floor 'focus'): unknown field of Focus; did you mean 'title'?"
        ),
        (
            "floors[4].tone", "6:42",
            #"floors[4].tone (floor 'tone'): Badge allows only "info", "warn" here, found "loud""#
        ),
        ("floors[4].count", "6:56", "floors[4].count (floor 'tone'): Badge expects at most 99 here, found 120"),
        (
            "floors[5].header.stiky", "7:71",
            "floors[5].header.stiky (floor 't'): unknown field of Title; did you mean 'sticky'?"
        ),
    ]

    func pluginsWithSchemaBadge(_ folder: TemporaryFolder) throws -> String {
        let plugins = try folder.installShippedPlugins()
        try compileCPlugin(to: plugins + "/libBadge.so", defines: ["WITH_SCHEMA"])
        return plugins
    }

    @Test func checkCatchesEachTypoClassWithItsPath() throws {
        let folder = try TemporaryFolder()
        let plugins = try pluginsWithSchemaBadge(folder)
        let page = try folder.write("typos.json", Self.typoPage)
        let result = try floorhost(["check", "--plugins", plugins, page, "--format", "json"])
        #expect(result.status == 1, "\(result.stderr)")
        let problems = try #require(try jsonObject(result.stdout)["problems"] as? [[String: Any]])
        let found = problems.map { ($0["path"] as? String ?? "", $0["message"] as? String ?? "") }
        #expect(found.map(\.0) == Self.expectedProblems.map(\.0), "\(found)")
        for ((_, message), (_, position, expected)) in zip(found, Self.expectedProblems) {
            #expect(message == "\(page):\(position): \(expected) (ignored)")
        }
        for (problem, (_, position, _)) in zip(problems, Self.expectedProblems) {
            #expect(problem["level"] as? String == "error" && problem["consequence"] as? String == "ignored")
            #expect("\(problem["line"] as? Int ?? 0):\(problem["column"] as? Int ?? 0)" == position)
        }
        // The text form says the same, one line each, and the summary counts them.
        let text = try floorhost(["check", "--plugins", plugins, page])
        #expect(text.status == 1)
        for (_, position, expected) in Self.expectedProblems {
            #expect(text.stdout.contains("error: \(page):\(position): \(expected) (ignored)\n"), "\(text.stdout)")
        }
        #expect(text.stdout.hasSuffix("\(Self.expectedProblems.count) errors in 1 page\n"))
    }

    @Test func renderReportsTheSameAsErrorsAndRenders() throws {
        let folder = try TemporaryFolder()
        let plugins = try pluginsWithSchemaBadge(folder)
        let page = try folder.write("typos.json", Self.typoPage)
        let result = try floorhost(["--plugins", plugins, page, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try jsonObject(result.stdout)
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        for (path, _, _) in Self.expectedProblems {
            #expect(
                diagnostics.contains { $0["path"] as? String == path && $0["level"] as? String == "error" }, "\(path)")
        }
        // Every floor is still drawn (an unknown field does not stop a floor).
        let floors = Set(try #require(report["rows"] as? [[String: Any]]).compactMap { $0["floor"] as? String })
        #expect(floors == ["channels", "count", "style", "focus", "tone", "t"])
    }

    @Test func aConformingPageHasNoSchemaProblems() throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins()
        let result = try floorhost(["check", "--plugins", plugins, Repo.path("Examples/home.json")])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == "ok: 3 pages checked, no problems\n")
    }

    /// A wrong value the plugin's decoder refuses is reported once, by the decoder, not again by the schema.
    @Test func aValueTheDecoderRefusesIsReportedOnce() throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins(["Title"])
        let page = try folder.write("p.json", #"{"floors":[{"type":"Title","id":"t","title":5}]}"#)
        let host = try FloorHost(pluginFolder: plugins)
        let adapter = try host.layout(page: page, width: 375)
        let titled = adapter.page.diagnostics.filter { $0.path == "floors[0].title" }
        #expect(titled.count == 1, "\(adapter.page.diagnostics)")
    }

    /// A typo repeated in every item is listed for the first items and counted for the rest.
    @Test func aFloorListsItsFirstFindingsAndCountsTheRest() throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins(["ProductFeed"])
        let items = (0..<30).map { #"{"id":"p\#($0)","title":"T","price":1,"img":"i","colour":"red"}"# }.joined(
            separator: ",")
        let page = try folder.write(
            "p.json", #"{"floors":[{"type":"ProductFeed","id":"feed","items":["# + items + "]}]}")
        let adapter = try FloorHost(pluginFolder: plugins).layout(page: page, width: 375)
        let warnings = adapter.page.diagnostics.map(\.message)
        #expect(warnings.count == SchemaFinding.shownPerFloor + 1, "\(warnings)")
        #expect(
            warnings.first
                == "\(page):1:98: floors[0].items[0].colour (floor 'feed'): unknown field of ProductFeed (its fields here: id, title, price, originalPrice, img, jump) (ignored)"
        )
        #expect(
            warnings.last
                == "\(page):1:1289: floors[0] (floor 'feed'): 10 more fields do not match the schema of ProductFeed (the first 20 are listed); `floorhost schema` shows what it expects (ignored)"
        )
        #expect(adapter.rowCount == 30)
    }

    /// ABI 1.3 is an appended field: plugins built against 1.1 and 1.2 (their floor type struct ends before
    /// `schema_json`) load beside 1.3 ones and simply have no schema, even with the field's bytes set in memory.
    @Test func aPluginBuiltAgainstABI11LoadsBeside13Ones() throws {
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins(["Title", "IconGrid"])
        try compileCPlugin(to: plugins + "/libOld11.so", defines: ["ABI_MINOR=1", "ABI_1_2_STRUCTS", "WITH_SCHEMA"])
        try compileCPlugin(
            to: plugins + "/libOld12.so",
            defines: [
                "ABI_MINOR=2", "ABI_1_2_STRUCTS", "WITH_SCHEMA",
                #"PLUGIN_ID="com.floorkit.test.badge12""#,
                #"FLOOR_TYPE="Badge12""#, #"ROW_TYPE="Badge12Row""#,
            ])
        let host = try FloorHost(pluginFolder: plugins)
        #expect(host.loadDiagnostics.isEmpty, "\(host.loadDiagnostics)")
        #expect(host.plugins.map(\.abiMinor).sorted() == [1, 2, 5, 5])
        let registry = host.registry
        func schema(_ name: String) throws -> DeclaredSchema? {
            let id = try #require(registry.floorTypeID(named: name))
            return registry.floorTypes[Int(id)].schema
        }
        #expect(try schema("Badge") == nil)
        #expect(try schema("Badge12") == nil)
        #expect(try schema("Title") != nil)
        #expect(try schema("IconGrid") != nil)
        // Without a schema a field is not checked; with one it is.
        let page = try folder.write(
            "p.json",
            #"{"floors":[{"type":"Badge","id":"b","text":"old","colour":"red"},{"type":"Title","id":"t","title":"T","subtitel":"x"}]}"#
        )
        let adapter = try host.layout(page: page, width: 375)
        #expect(adapter.page.diagnostics.map(\.path) == ["floors[1].subtitel"])
        #expect(adapter.describe(row: 0).type == "BadgeRow")
        // The page schema still lists the old plugin's floor type, with any fields.
        let document = PageSchema.document(for: registry)
        let badge = try #require(document["$defs"]?["floor-Badge"])
        #expect(badge["properties"] == nil)
        #expect(
            badge["description"].map { "\($0)".contains("declares no schema (built before plugin ABI 1.3)") } == true)
    }

    @Test func theSDKDerivesTheShippedSchemasFromTheirFields() throws {
        let folder = try TemporaryFolder()
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins())
        let registry = host.registry
        func document(_ name: String) throws -> SchemaValue {
            let id = try #require(registry.floorTypeID(named: name))
            return try #require(registry.floorTypes[Int(id)].schema?.document)
        }
        func names(_ value: SchemaValue?) -> [String] {
            guard case .object(let members)? = value else { return [] }
            return members.map(\.0)
        }
        let grid = try document("IconGrid")
        // Declaration order, as the model reads them; `columns` is optional (it has a default).
        #expect(names(grid["properties"]) == ["items", "columns"])
        #expect(grid["required"] == .array([.string("items")]))
        #expect(grid["properties"]?["columns"]?["type"] == .array([.string("integer"), .string("null")]))
        #expect(grid["properties"]?["columns"]?["minimum"] == .number(1, "1"))
        #expect(grid["properties"]?["columns"]?["maximum"] == .number(10, "10"))
        let icon = try #require(grid["properties"]?["items"]?["items"])
        #expect(names(icon["properties"]) == ["id", "img", "title", "jump"])
        #expect(icon["required"] == .array([.string("id"), .string("img"), .string("title")]))
        #expect(icon["additionalProperties"] == .bool(false))
        #expect(icon["properties"]?["jump"]?["required"] == .array([.string("url")]))
        // A type that states its own schema (ProductFeed's price: text or a number of yuan).
        let feed = try document("ProductFeed")
        let price = try #require(feed["properties"]?["items"]?["items"]?["properties"]?["price"])
        #expect(price["type"] == .array([.string("string"), .string("number")]))
        // Every shipped field has a description for editors.
        for name in Repo.shippedPlugins {
            #expect(try Self.undescribed(try document(name)).isEmpty, "\(name)")
        }
    }

    /// Fields (by path) whose schema has no description.
    static func undescribed(_ schema: SchemaValue, at path: String = "") throws -> [String] {
        var missing: [String] = []
        if case .object(let members)? = schema["properties"] {
            for (name, field) in members {
                let here = path.isEmpty ? name : "\(path).\(name)"
                if field["description"] == nil { missing.append(here) }
                missing += try undescribed(field, at: here)
            }
        }
        if let items = schema["items"] { missing += try undescribed(items, at: path + "[]") }
        return missing
    }

    /// `floorhost schema`'s output is valid draft 2020-12 (Python's jsonschema checks it), every example page
    /// validates against it, and it is not vacuous: the typo page fails it at the typos.
    @Test func schemaOutputValidatesTheExamplePagesWithJSONSchema() throws {
        let python = try run("/usr/bin/env", ["python3", "-c", "import jsonschema"])
        try #require(python.status == 0, "Python's jsonschema is missing: run Scripts/setup")
        let folder = try TemporaryFolder()
        let plugins = try folder.installShippedPlugins()
        let schema = try floorhost(["schema", "--plugins", plugins])
        #expect(schema.status == 0, "\(schema.stderr)")
        let file = try folder.write("page.schema.json", schema.stdout)
        let examples = try FileManager.default.contentsOfDirectory(atPath: Repo.path("Examples"))
            .filter { $0.hasSuffix(".json") }.sorted().map { Repo.path("Examples/" + $0) }
        #expect(examples.count >= 3)
        let script = Repo.path("Tests/Schema/validate_pages.py")
        let valid = try run("/usr/bin/env", ["python3", script, file] + examples)
        #expect(valid.status == 0, "\(valid.stdout)\(valid.stderr)")
        #expect(valid.stdout.hasSuffix("ok: \(examples.count) pages\n"))

        let typos = try folder.write(
            "typos.json",
            #"{"nxt":null,"floors":[{"type":"IconGrid","id":"c","colums":5,"items":[{"id":"i","img":"a","title":"A"}]},{"pattern":"Title","id":"t","title":5}]}"#
        )
        // By default unknown fields are allowed (a CMS's metadata; check warns, or errs on a near miss): only
        // the wrong value fails.
        let lenient = try run("/usr/bin/env", ["python3", script, file, typos])
        #expect(lenient.status == 1, "\(lenient.stdout)\(lenient.stderr)")
        #expect(lenient.stdout.contains("typos.json: floors[1].title: 5 is not of type 'string'"), "\(lenient.stdout)")
        #expect(!lenient.stdout.contains("Additional properties"), "\(lenient.stdout)")
        let metadata = try folder.write(
            "cms.json",
            #"{"id":"home-42","version":7,"updatedAt":"2026-11-26","floors":[{"type":"Title","id":"t","title":"T","trackingId":"x"}]}"#
        )
        let exported = try run("/usr/bin/env", ["python3", script, file, metadata])
        #expect(exported.status == 0, "a CMS export validates: \(exported.stdout)\(exported.stderr)")
        // --strict forbids them, for editors that want every unknown key underlined.
        let strictSchema = try floorhost(["schema", "--strict", "--plugins", plugins])
        let strictFile = try folder.write("strict.schema.json", strictSchema.stdout)
        let invalid = try run("/usr/bin/env", ["python3", script, strictFile, typos, metadata])
        #expect(invalid.status == 1, "\(invalid.stdout)\(invalid.stderr)")
        #expect(
            invalid.stdout.contains("typos.json: (page): Additional properties are not allowed ('nxt' was unexpected)"),
            "\(invalid.stdout)")
        #expect(
            invalid.stdout.contains(
                "typos.json: floors[0]: Additional properties are not allowed ('colums' was unexpected)"),
            "\(invalid.stdout)")
        #expect(invalid.stdout.contains("typos.json: floors[1].title: 5 is not of type 'string'"), "\(invalid.stdout)")
        #expect(invalid.stdout.contains("cms.json: (page): Additional properties are not allowed"), "\(invalid.stdout)")
    }

    @Test func aSchemaThePluginGetsWrongIsAWarningAndNoCheck() throws {
        let folder = try TemporaryFolder()
        let plugins = folder.file("plugins")
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try compileCPlugin(
            to: plugins + "/libBadge.so",
            defines: [#"SCHEMA_JSON="{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"text\"}}}""#])
        let host = try FloorHost(pluginFolder: plugins)
        let warning = try #require(host.registry.pluginMessages.first { $0.level == .warning })
        #expect(
            warning.message.contains(
                "the schema_json of floor type 'Badge' cannot be used (at /properties/text/type: \"type\" must name object, array, string, number, integer, boolean or null (or list them))"
            ), "\(warning.message)")
        let id = try #require(host.registry.floorTypeID(named: "Badge"))
        #expect(host.registry.floorTypes[Int(id)].schema == nil)
    }
}
