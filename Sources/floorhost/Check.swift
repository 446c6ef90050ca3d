import ArgumentParser
import FloorHost
import Foundation

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate a page and every next page it links; exit 1 when there is any problem.",
        discussion: """
            Makes every call a render makes (decode, validate, expand, heights, next-page extend, every \
            row's cell selector, tappable items and every item's action); a floor a plugin crashes or hangs \
            on, a plugin that failed to load and a refused registration are problems too.
            For CMS pipelines: floorhost check --plugins Plugins/ Examples/home.json [--format json]
            """)

    @OptionGroup var plugins: PluginOptions

    @OptionGroup var containment: ContainmentOptions

    @OptionGroup var pages: PageRootOptions

    @OptionGroup var remote: RemotePageOptions

    @Argument(help: "The first page: a JSON file, or an http:// or https:// URL.")
    var page: String

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(help: "Output: text (one line per problem, then a summary) or json (one object: pages, problems and notes with level, message, file, plugin and path, and a summary). The exit status is the same for both.")
    var format: Format = .text

    func run() throws {
        // As render: a floor a plugin crashes or hangs on is left out of the next attempt, and is a problem.
        try containment.superviseUnlessChild(isolation: plugins.pluginIsolation)
        let root = try pages.root(for: page)
        let host = try plugins.load()
        try containment.attach(host)
        let check = PageCheck.run(file: page, registry: host.registry, root: root, remote: remote.client(maxPageBytes: pages.maxPageBytes))
        // Written only now that every plugin call has returned (see PageSupervisor). A plugin that failed to
        // load, a refused registration, or a plugin's own error message fails check as a page problem does.
        let pluginDiagnostics = host.loadDiagnostics + host.registry.pluginMessages
        let report = CheckReport(check: check, pluginDiagnostics: pluginDiagnostics)
        switch format {
        case .text:
            for d in pluginDiagnostics { printError("\(d.level.rawValue): \(d.message)") }
            for problem in report.problems.dropFirst(report.pluginProblems) {
                try writeOutput(line: ControlCharacters.escaped("\(problem.level.rawValue): \(problem.message)"))
            }
            try writeOutput(line: report.summary)
        case .json:
            try writeOutput(report.json())
        }
        try containment.finish(report.passed ? 0 : 1)
    }
}
