import ArgumentParser
import FloorCommandLine
import FloorCore

@main
struct FloorHostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "floorhost",
        abstract: "Render CMS pages with floor plugins loaded at run time.",
        discussion: """
            Each floor type is a plugin library (*.so) in the plugin folder; adding one needs no rebuild \
            of floorhost. Exit status: 0 when the page rendered (warnings may be printed), 2 when the \
            page is unusable (unreadable or malformed), 64 for a usage error (an unknown option, a value \
            of the wrong form), 1 for other failures.
            """,
        version: Version.line,
        subcommands: [
            Render.self, View.self, Check.self, Diff.self, Schema.self, ServeEntry.self, Conform.self, Lock.self,
            ConformChild.self, ScanPlugin.self,
        ],
        defaultSubcommand: Render.self)

    /// `serve` is floorhost-serve's (ServeProgram), run in this process's place before anything is parsed.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if ServeProgram.isAsked(by: arguments) { ServeProgram.run(arguments) }
        startCommandProcess(Self.self)
        main(nil)
    }
}

/// `serve` in floorhost's list of commands; main() runs floorhost-serve for it before parsing.
struct ServeEntry: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: ServeHelp.abstract)

    func run() throws { ServeProgram.run(Array(CommandLine.arguments.dropFirst())) }
}
