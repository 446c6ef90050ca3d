import ArgumentParser
import FloorCommandLine
import FloorCore
import FloorRender
import FloorRuntime
import FloorSession
import FoundationEssentials

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff", abstract: PageComparison.abstract, discussion: PageComparison.discussion)

    enum Format: String, CaseArgument { case text, json }

    @OptionGroup var plugins: PluginOptions

    @Argument(help: "The page as it was (JSON): a file, or an http:// or https:// URL.")
    var old: String

    @Argument(help: "The page as it is now (JSON): a file, or an http:// or https:// URL.")
    var new: String

    @Option(help: "Output: text (content lines, then screen lines) or json (content, floors, diagnostics, stats).")
    var format: Format = .text

    @Option(help: "Layout width in points.")
    var width: Double = 375

    @OptionGroup var containment: ContainmentOptions
    @OptionGroup var pages: PageRootOptions
    @OptionGroup var remote: RemotePageOptions

    func validate() throws {
        if !(width >= 1 && width <= 100_000) { throw ValidationError("--width must be between 1 and 100000") }
    }

    func run() throws {
        try containment.superviseUnlessChild(isolation: plugins.pluginIsolation, command: self)
        let oldRoot = try pages.root(for: old)
        let newRoot = try pages.root(for: new)
        // The plugin folder's error is said by load(); it is unusable input (1 means "the pages differ").
        guard let host = try? plugins.load() else { throw ExitCode(2) }
        try containment.attach(host)
        let result = try unusableInput {
            try PageComparison.run(
                host: host, old: old, oldRoot: oldRoot, new: new, newRoot: newRoot,
                remote: remote.client(maxPageBytes: pages.maxPageBytes), width: width, json: format == .json)
        }
        for d in result.diagnostics { printError(d.line) }
        try writeOutput(result.output)
        try containment.finish(result.changed ? 1 : 0, keeping: result)
    }
}
