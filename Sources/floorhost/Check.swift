import ArgumentParser
import FloorHost

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate a page and every next page it links; exit 1 when there is any problem.",
        discussion: "For CMS pipelines: floorhost check --plugins Plugins/ Examples/home.json")

    @OptionGroup var plugins: PluginOptions

    @Argument(help: "The first page's JSON file.")
    var page: String

    func run() throws {
        let host = try plugins.load()
        for d in host.loadDiagnostics { printError("\(d.level.rawValue): \(d.message)") }
        let check = PageCheck.run(file: page, registry: host.registry)
        for problem in check.problems { print("\(problem.level.rawValue): \(problem.message)") }
        let pages = "\(check.pages.count) page\(check.pages.count == 1 ? "" : "s")"
        if check.problems.isEmpty {
            print("ok: \(pages) checked, no problems")
        } else {
            print("\(check.problems.count) problem\(check.problems.count == 1 ? "" : "s") in \(pages)")
            throw ExitCode(1)
        }
    }
}
