import ArgumentParser
import FloorCommandLine
import FloorRuntime
import FloorSession

struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema (draft 2020-12) of a page for the plugins in the plugin folder.",
        discussion: """
            The page's fields, each floor's common fields (type/pattern, id, header, margin) and each floor \
            type's own fields as its plugin declares them, selected by the floor's type. Point an editor at \
            it to complete and check pages, e.g. VS Code's "json.schemas" setting, or "$schema" in a page.
            Example: floorhost schema --plugins Plugins/ > page.schema.json (--strict: no unknown fields)
            """)

    @OptionGroup var plugins: PluginOptions

    @Flag(help: "Forbid fields the schema does not name (by default allowed, as check warns of them).") var strict =
        false

    func run() throws {
        let host = try plugins.load()
        // Plugins that did not load, or schemas that cannot be used, are said on stderr; the schema still
        // describes every floor type that did load.
        for d in host.loadDiagnostics + host.registry.pluginMessages where d.level != .info {
            printError(d.line)
        }
        try writeOutput(line: PageSchema.document(for: host.registry, strict: strict).text())
    }
}
