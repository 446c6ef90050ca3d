import FloorCore
import FloorSession
import Foundation
import HostContract
import Testing

/// A plugin cannot forge host output: everything it supplies reaches the terminal with control characters
/// escaped (ControlCharacters), json keeps them as JSON escapes, and type names with them are refused.
struct ControlCharacterTests {
    static let esc = "\u{1b}"

    @Test func jsonWriterEscapesTheSameSetAsJSONEscapes() throws {
        var writer = JSONWriter()
        let text = "x\u{1b}[31m\u{7f}\u{9b}\u{202e}\u{2069}é价\n\"\\"
        writer.string(text)
        let json = String(decoding: writer.bytes, as: UTF8.self)
        #expect(json == #""x\u001b[31m\u007f\u009b\u202e\u2069é价\n\"\\""#)
        #expect(!json.unicodeScalars.contains(where: ControlCharacters.isUnsafe))
        let parsed = try JSONSerialization.jsonObject(with: Data("[\(json)]".utf8)) as? [String]
        #expect(parsed == [text], "the escapes decode to the plugin's exact text")
    }

    /// The contract.c plugin built with `defines` into `folder`/plugins, and a page with one Contract floor.
    private func plugin(_ defines: [String], in folder: TemporaryFolder) throws -> (String, String) {
        try FileManager.default.createDirectory(atPath: folder.file("plugins"), withIntermediateDirectories: true)
        try compileCPlugin("contract.c", to: folder.file("plugins/libContract.so"), defines: defines)
        let page = try folder.write("page.json", #"{"floors":[{"type":"Contract","id":"c","text":"hi"}]}"#)
        return (folder.file("plugins"), page)
    }

    @Test func aPluginCannotPrintItsOwnErrorLine() throws {
        let folder = try TemporaryFolder("control")
        let (plugins, page) = try plugin(["FORGE_OUTPUT"], in: folder)
        for isolation in ["--plugin-isolation", "--no-plugin-isolation"] {
            let text = try floorhost(["--plugins", plugins, isolation, page])
            #expect(text.status == 0, "\(text.stderr)")
            for output in [text.stdout, text.stderr] {
                #expect(!output.contains(Self.esc))
                #expect(!output.split(separator: "\n").contains { $0.hasPrefix("error:") }, "\(output)")
            }
            #expect(
                text.stderr.contains(
                    #"info: com.floorkit.test.contract: hello\u000a\u001b[31merror: forged by a plugin\u001b[0m"#))
            #expect(text.stdout.contains(#"drawn\u000a\u001b[31merror"#), "drawn text")
            #expect(text.stdout.contains(#"[x\u000a\u001b[31merror"#), "image name")

            let json = try floorhost(["--plugins", plugins, isolation, "--format", "json", page])
            #expect(!json.stdout.contains(Self.esc) && !json.stdout.dropLast().contains("\n"))
            let object = try jsonObject(json.stdout)
            let messages = (object["diagnostics"] as? [[String: Any]])?.compactMap { $0["message"] as? String } ?? []
            #expect(
                messages.contains("com.floorkit.test.contract: hello\n\u{1b}[31merror: forged by a plugin\u{1b}[0m"),
                "json keeps the exact text, escaped as JSON")
        }
    }

    @Test func tapOutputIsEscaped() throws {
        let folder = try TemporaryFolder("control-tap")
        try FileManager.default.createDirectory(atPath: folder.file("plugins"), withIntermediateDirectories: true)
        try compileCPlugin("contract.c", to: folder.file("plugins/libContract.so"))
        // The floor id is the page's, and reaches --tap output: DEL and a bidi override survive JSONSerialization.
        let page = try folder.write(
            "page.json", "{\"floors\":[{\"type\":\"Contract\",\"id\":\"c\u{7f}\u{202e}\",\"text\":\"hi\"}]}")
        let tap = try floorhost(["--plugins", folder.file("plugins"), "--tap", "0:0", page])
        #expect(tap.status == 0, "\(tap.stderr)")
        #expect(!tap.stdout.unicodeScalars.contains { ControlCharacters.isUnsafe($0) && $0 != "\n" })
        #expect(try jsonObject(tap.stdout)["floor"] as? String == "c\u{7f}\u{202e}")
    }

    @Test func typeNamesWithControlCharactersAreRefused() throws {
        for (define, kind, shown) in [
            ("CONTROL_IN_ROW_TYPE_NAME", "row", #"ContractRow\u001b[31m"#),
            ("CONTROL_IN_FLOOR_TYPE_NAME", "floor", #"Contract\u000aerror: forged"#),
        ] {
            let folder = try TemporaryFolder("control")
            let (plugins, _) = try plugin([define], in: folder)
            let host = try FloorHost(pluginFolder: plugins)
            let messages = host.loadDiagnostics.map(\.message)
            #expect(messages.count == 1, "\(messages)")
            #expect(
                messages.first?.contains(
                    "com.floorkit.test.contract: \(kind) type name '\(shown)' contains control characters") == true,
                "\(messages)")
            #expect(
                !host.registry.rowTypeNames.contains { $0.unicodeScalars.contains(where: ControlCharacters.isUnsafe) })
            #expect(
                !host.registry.floorTypeNames.contains { $0.unicodeScalars.contains(where: ControlCharacters.isUnsafe) }
            )
        }
    }

    @Test func conformOutputIsEscaped() throws {
        let folder = try TemporaryFolder("control")
        let (plugins, _) = try plugin(["CONTROL_IN_FLOOR_TYPE_NAME"], in: folder)
        let table = try floorhost(["conform", plugins])
        #expect(table.status == 1)
        #expect(!table.stdout.split(separator: "\n").contains { $0.hasPrefix("error:") }, "\(table.stdout)")
        #expect(
            table.stdout.contains(#"floor type name 'Contract\u000aerror: forged' contains control characters"#),
            "\(table.stdout)")
        let json = try floorhost(["conform", "--format", "json", plugins])
        #expect(!json.stdout.unicodeScalars.contains { ControlCharacters.isUnsafe($0) && $0 != "\n" })
        #expect(json.stdout.contains(#"'Contract\\u000aerror: forged'"#), "\(json.stdout)")
    }
}
