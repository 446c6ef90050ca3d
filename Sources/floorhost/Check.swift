import ArgumentParser
import FloorHost

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate a page and every next page it links; exit 1 when there is any problem.",
        discussion: "For CMS pipelines: floorhost check --plugins Plugins/ Examples/home.json")

    @OptionGroup var plugins: PluginOptions

    @OptionGroup var containment: ContainmentOptions

    @Argument(help: "The first page's JSON file.")
    var page: String

    func run() throws {
        // As render: a floor a plugin crashes or hangs on is left out of the next attempt, and is a problem.
        try containment.superviseUnlessChild(isolation: plugins.pluginIsolation)
        let host = try plugins.load()
        try containment.attach(host)
        let check = PageCheck.run(file: page, registry: host.registry)
        // Written only now that every plugin call has returned (see PageSupervisor).
        for d in host.loadDiagnostics { printError("\(d.level.rawValue): \(d.message)") }
        for problem in check.problems { print(ControlCharacters.escaped("\(problem.level.rawValue): \(problem.message)")) }
        let pages = "\(check.pages.count) page\(check.pages.count == 1 ? "" : "s")"
        if check.problems.isEmpty {
            print("ok: \(pages) checked, no problems")
        } else {
            print("\(check.problems.count) problem\(check.problems.count == 1 ? "" : "s") in \(pages)")
        }
        try containment.finish(check.problems.isEmpty ? 0 : 1)
    }
}
