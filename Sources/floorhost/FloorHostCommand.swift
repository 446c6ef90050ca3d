import ArgumentParser
import FloorHost

@main
struct FloorHostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "floorhost",
        abstract: "Render CMS pages with floor plugins loaded at run time.",
        discussion: """
            Each floor type is a plugin library (*.so) in the plugin folder; adding one needs no rebuild \
            of floorhost. Exit status: 0 when the page rendered (warnings may be printed), 2 when the \
            page is unusable (unreadable or malformed), 1 for other failures.
            """,
        subcommands: [Render.self, Check.self, Serve.self, Conform.self, Lock.self, ConformChild.self, ScanPlugin.self, ServeWorker.self],
        defaultSubcommand: Render.self)
}
