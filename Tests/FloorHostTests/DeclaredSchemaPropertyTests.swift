import FloorCore
import FloorSession
import Foundation
import Testing

@testable import FloorRuntime

/// Issue 21, item 5: the schema is the decoder. Each shipped floor type's decoder and the schema it exports
/// (`floorhost schema`, strict: every field) come from one declaration (FloorKit's `Declared`); over
/// generated floors, a floor is valid against the exported schema if and only if the plugin decodes it with
/// no diagnostic. The floors are generated without the schema: each field draws from values of its kind and
/// from values of every other kind (wrong types, null, empty and blank text, numeric and non-numeric text,
/// numbers out of range, short lists, elements that are not objects), so that at least 30 % are invalid.
/// Unknown fields are left out: the host reports those, not the plugin (SchemaTests covers them). "Valid"
/// is checked twice: by the host's validator and by Python's jsonschema on `floorhost schema`'s output.
@Suite struct DeclaredSchemaPropertyTests {
    static let floorsPerType = 10_000
    static let floorsPerPage = 500

    /// A deterministic generator (SplitMix64).
    struct Generator {
        var state: UInt64
        /// A tidy floor draws each value from the first, everyday values of its kind and leaves few fields
        /// out; a noisy one from all of them, and from other kinds. Half of the floors are each.
        var noisy = true
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
        mutating func pick(_ values: [String]) -> String { values[below(values.count)] }
    }

    /// Values by kind, as JSON text, the first `everyday` of each kind ordinary ones.
    static let everyday = 4
    static let texts = [
        #""a""#, #""Sale 双十一""#, #""https://img.example.com/p/1.jpg""#, #""x y""#, #""\u0041b""#, #""""#, #"" ""#,
        #""\u3000""#, #""\t""#, #"" \u00a0x""#, #""199""#, #""¥1,299.00""#, #""19x9""#, #""-1""#, #""1e3""#,
    ]
    static let numbers = [
        "1", "4", "0", "59.9", "-0", "10", "11", "2.5", "-1", "59.9", "1e0", "4.0", "1e12", "1e13", "10000", "10001",
        "1e400",
    ]
    static let others = ["true", "false", "null", "true", "{}", "[]", #"["x"]"#]
    static let anything = texts + numbers + others

    /// A field's value: mostly of `kind`, sometimes anything.
    static func value(_ kind: [String], _ g: inout Generator) -> String {
        guard g.noisy else { return g.pick(Array(kind.prefix(everyday))) }
        return g.chance(85) ? g.pick(kind) : g.pick(anything)
    }

    /// An object of `fields` (name, value maker), each present or not.
    static func object(_ fields: [(String, (inout Generator) -> String)], _ g: inout Generator, keep: Int = 85)
        -> String
    {
        let members = fields.compactMap { name, make in
            g.chance(g.noisy ? keep : 97) ? #""\#(name)":\#(make(&g))"# : nil
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    static func list(_ element: (inout Generator) -> String, _ g: inout Generator) -> String {
        if g.noisy && g.chance(10) { return g.pick(anything) }
        let count = g.below(5)
        return "["
            + (0..<count).map { _ in g.noisy && g.chance(5) ? g.pick(anything) : element(&g) }
            .joined(separator: ",") + "]"
    }

    static func jump(_ g: inout Generator) -> String {
        g.noisy && g.chance(10)
            ? g.pick(anything) : object([("url", { value(texts, &$0) }), ("eventId", { value(texts, &$0) })], &g)
    }

    /// An item of Focus and IconGrid: id, picture, title and a jump.
    static func linkedItem(_ g: inout Generator) -> String {
        object(
            [
                ("id", { value(texts, &$0) }), ("img", { value(texts, &$0) }), ("title", { value(texts, &$0) }),
                ("jump", jump),
            ], &g)
    }

    /// The fields of each shipped type, by name and the kind of value it usually holds (not its rules).
    static var fields: [String: [(String, (inout Generator) -> String)]] {
        [
            "Title": [("title", { value(texts, &$0) }), ("subtitle", { value(texts, &$0) })],
            "Focus": [
                (
                    "items",
                    {
                        list(linkedItem, &$0)
                    }
                )
            ],
            "IconGrid": [
                ("columns", { value(numbers, &$0) }),
                (
                    "items",
                    {
                        list(linkedItem, &$0)
                    }
                ),
            ],
            "ProductFeed": [
                (
                    "items",
                    {
                        list(
                            { g in
                                object(
                                    [
                                        ("id", { value(texts, &$0) }), ("title", { value(texts, &$0) }),
                                        ("price", { $0.chance(50) ? value(numbers, &$0) : value(texts, &$0) }),
                                        ("originalPrice", { $0.chance(50) ? value(numbers, &$0) : value(texts, &$0) }),
                                        ("img", { value(texts, &$0) }), ("jump", jump),
                                    ], &g)
                            }, &$0)
                    }
                ),
                ("sorts", { list({ value(texts, &$0) }, &$0) }),
            ],
        ]
    }

    /// The common fields the SDK decodes for every floor (header, margin), now and then.
    static var common: [(String, (inout Generator) -> String)] {
        [
            ("header", { object([("title", { value(texts, &$0) }), ("sticky", { value(others, &$0) })], &$0) }),
            ("margin", { object([("top", { value(numbers, &$0) }), ("bottom", { value(numbers, &$0) })], &$0) }),
        ]
    }

    static func floor(_ type: String, id: Int, _ g: inout Generator) -> String {
        g.noisy = g.chance(50)
        var members = [#""type":"\#(type)""#, #""id":"f\#(id)""#]
        for (name, make) in fields[type]! + common.filter({ _ in g.chance(15) })
        where g.chance(name == "items" ? 95 : 70) {
            members.append(#""\#(name)":\#(make(&g))"#)
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    @Test(arguments: ["Focus", "IconGrid", "ProductFeed", "Title"])
    func validAgainstTheExportedSchemaIffDecodedWithNoDiagnostic(type: String) throws {
        let folder = try TemporaryFolder("declared-\(type)")
        let host = try FloorHost(pluginFolder: try folder.installShippedPlugins([type]))
        let registry = host.registry
        let declared = try #require(
            registry.floorTypes.first { $0.name == type }?.schema, "\(type) exports no schema")
        // The floor object as `floorhost schema` exports it (every field, unknown ones forbidden).
        let exported = try FloorSchema.parse(
            CommonFloorFields.floorObject(declared.document, checking: false), pointer: "", depth: 0)

        // The same schema as floorhost exports it, for Python's jsonschema: an editor's validator, not ours.
        let python = try run("/usr/bin/env", ["python3", "-c", "import jsonschema"])
        try #require(python.status == 0, "Python's jsonschema is missing: run Scripts/setup")
        let schema = try floorhost(["schema", "--strict", "--plugins", folder.file("plugins")])
        try #require(schema.status == 0, "\(schema.stderr)")
        let schemaFile = try folder.write("page.schema.json", schema.stdout)

        var g = Generator(state: UInt64(type.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
        var invalid = 0
        var disagreements: [String] = []
        var pages: [(file: String, floors: [String], valid: [Bool])] = []
        for first in stride(from: 0, to: Self.floorsPerType, by: Self.floorsPerPage) {
            let floors = (first..<(first + Self.floorsPerPage)).map { Self.floor(type, id: $0, &g) }
            let text = #"{"floors":[\#(floors.joined(separator: ",\n"))]}"#
            let file = try folder.write("generated-\(first).json", text)
            var valid: [Bool] = []
            let page = Array(text.utf8)
            let decoded = try PageDecoder.decode(bytes: page, file: "generated.json", registry: registry)
            // What the plugin said, per floor (the host's own schema findings are not the plugin's).
            var pluginSaid = [[String]](repeating: [], count: floors.count)
            for diagnostic in decoded.diagnostics where diagnostic.message.contains("(plugin ") {
                let path = diagnostic.path ?? ""
                guard path.hasPrefix("floors["), let close = path.firstIndex(of: "]"),
                    let index = Int(path[path.index(path.startIndex, offsetBy: 7)..<close])
                else {
                    Issue.record("a plugin diagnostic without a floor's path: \(diagnostic.message)")
                    continue
                }
                pluginSaid[index].append(diagnostic.message)
            }
            for (index, floor) in floors.enumerated() {
                let findings = Array(floor.utf8).withUnsafeBytes {
                    SchemaValidator.validate($0, against: exported, typeName: type)
                }
                if !findings.isEmpty { invalid += 1 }
                valid.append(findings.isEmpty)
                if findings.isEmpty != pluginSaid[index].isEmpty, disagreements.count < 5 {
                    disagreements.append(
                        "\(floor)\n  schema: \(findings.map { "\($0.path): \($0.message)" })\n  plugin: \(pluginSaid[index])"
                    )
                }
            }
            pages.append((file, floors, valid))
        }
        // Python's jsonschema on the exported schema says of every floor what the host's validator says.
        let editor = try run(
            "/usr/bin/env", ["python3", Repo.path("Tests/Schema/validate_pages.py"), schemaFile] + pages.map(\.file))
        var editorInvalid = Set<String>()
        for line in editor.stdout.split(separator: "\n") {
            guard let range = line.range(of: ": floors["), let close = line[range.upperBound...].firstIndex(of: "]")
            else { continue }
            editorInvalid.insert("\(line[..<range.lowerBound]) \(line[range.upperBound..<close])")
        }
        for page in pages {
            for (index, valid) in page.valid.enumerated()
            where valid == editorInvalid.contains("\(page.file) \(index)") && disagreements.count < 5 {
                disagreements.append("jsonschema and the host's validator disagree on \(page.floors[index])")
            }
        }
        #expect(editor.status == (invalid == 0 ? 0 : 1), "\(editor.stderr)")
        #expect(
            disagreements.isEmpty, "\(type): schema and decoder disagree:\n\(disagreements.joined(separator: "\n"))")
        let share = Double(invalid) / Double(Self.floorsPerType)
        #expect(share >= 0.3 && share <= 0.9, "\(type): \(invalid) of \(Self.floorsPerType) generated floors invalid")
        print("\(type): \(Self.floorsPerType) floors, \(invalid) invalid, \(disagreements.count) disagreements")
    }
}
