import ArgumentParser
import FloorCheck
import FloorCommandLine
import FloorCore
import FloorRuntime
import FloorSession
import FoundationEssentials
import HostContract

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: Child.checkCommand, abstract: CheckRun.abstract, discussion: CheckRun.discussion)

    @OptionGroup var plugins: PluginOptions
    @OptionGroup var containment: ContainmentOptions
    @OptionGroup var pages: PageRootOptions
    @OptionGroup var remote: RemotePageOptions

    @Argument(
        help: ArgumentHelp(
            "Pages: JSON files, folders (every *.json under them), globs ('pages/*.json') and http:// or https:// URLs.",
            valueName: "page"))
    var page: [String]

    enum Format: String, CaseArgument { case text, json, junit }

    @Option(
        help:
            "Output: text (one line per problem, then a summary), json (one object: pages, problems and notes, a summary) or junit (JUnit XML, a test case a page). The exit status is the same."
    )
    var format: Format = .text

    @Option(help: ArgumentHelp("Check only share K of N (1 <= K <= N), for CI machines in parallel.", valueName: "K/N"))
    var shard: String?

    @Option(
        help: ArgumentHelp(
            "Processes checking pages side by side (default: one a core). Needs plugin isolation: with --no-plugin-isolation pages are checked one after another in this process.",
            valueName: "n"))
    var jobs: Int?

    @Flag(help: "Fail on warnings (a field ignored) too, not only on errors.") var strict = false

    /// A share of a parallel check: print PageBatch's report for the parent and nothing else.
    @Flag(help: .hidden) var share = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more") }
        if page.isEmpty { throw ValidationError("name at least one page: a JSON file, a folder or a glob") }
        if let shard, CheckShard(shard) == nil { throw ValidationError("--shard takes K/N with 1 <= K <= N, e.g. 2/8") }
    }

    func run() throws {
        var files = try unusableInput { try PageSet.expand(page) }
        let fixedRoot = pages.pageRoot == nil ? nil : try pages.root(for: files[0])
        let root = { fixedRoot ?? PageRoot(around: $0, maxPageBytes: pages.maxPageBytes, maxPages: pages.maxPages) }
        if let shard = shard.flatMap(CheckShard.init) { files = shard.pages(of: files, given: page, root: root) }
        let jobs = min(self.jobs ?? ProcessInfo.processInfo.activeProcessorCount, files.count)
        let output: CheckRun.Output
        if plugins.pluginIsolation, !share, containment.crashRecord == nil, jobs > 1 {
            do {
                output = try CheckRun.inParallel(files, jobs: jobs, share: childCommand(.share), strict: strict)
            } catch {
                printError("error: \(error.message)")
                throw ExitCode(1)
            }
        } else {
            // As render: a floor a plugin crashes or hangs on is left out of the next attempt, and is a problem.
            try containment.superviseUnlessChild(isolation: plugins.pluginIsolation, command: self)
            let host = try plugins.load()
            try containment.attach(host)
            // Plugin diagnostics are read only once every plugin call has returned (see PageSupervisor).
            output = CheckRun.here(
                files, registry: host.registry, remote: remote.client(maxPageBytes: pages.maxPageBytes),
                root: root, share: share, strict: strict, allowed: host.allowedFields,
                pluginDiagnostics: { host.loadDiagnostics + host.registry.pluginMessages })
        }
        let (bytes, errors) = output.printed(json: format == .json, junit: format == .junit)
        for line in errors { printError(line) }
        try writeOutput(bytes)
        try containment.finish(output.passed ? 0 : 1)
    }
}
