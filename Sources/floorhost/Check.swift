import ArgumentParser
import FloorHost

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate a page and every next page it links; exit 1 when there is any problem.",
        discussion: """
            Makes every call a render makes (decode, validate, expand, heights, next-page extend, every \
            row's cell selector, tappable items and every item's action); a floor a plugin crashes or hangs \
            on, a plugin that failed to load and a refused registration are problems too.
            For CMS pipelines: floorhost check --plugins Plugins/ Examples/home.json
            """)

    @OptionGroup var plugins: PluginOptions

    @OptionGroup var containment: ContainmentOptions

    @OptionGroup var pages: PageRootOptions

    @Argument(help: "The first page's JSON file.")
    var page: String

    func run() throws {
        // As render: a floor a plugin crashes or hangs on is left out of the next attempt, and is a problem.
        try containment.superviseUnlessChild(isolation: plugins.pluginIsolation)
        let root = try pages.root(for: page)
        let host = try plugins.load()
        try containment.attach(host)
        let check = PageCheck.run(file: page, registry: host.registry, root: root)
        // Written only now that every plugin call has returned (see PageSupervisor). A plugin that failed to
        // load, a refused registration, or a plugin's own error message fails check as a page problem does.
        let pluginDiagnostics = host.loadDiagnostics + host.registry.pluginMessages
        for d in pluginDiagnostics { printError("\(d.level.rawValue): \(d.message)") }
        for problem in check.problems { try writeOutput(line: ControlCharacters.escaped("\(problem.level.rawValue): \(problem.message)")) }
        let pluginErrors = pluginDiagnostics.filter { $0.level == .error }.count
        let pages = "\(check.pages.count) page\(check.pages.count == 1 ? "" : "s")"
        let total = check.problems.count + pluginErrors
        if total == 0 {
            try writeOutput(line: "ok: \(pages) checked, no problems")
        } else {
            let inPlugins = pluginErrors == 0 ? "" : " (\(pluginErrors) in plugins, on stderr)"
            try writeOutput(line: "\(total) problem\(total == 1 ? "" : "s")\(inPlugins) in \(pages)")
        }
        try containment.finish(total == 0 ? 0 : 1)
    }
}
