import ArgumentParser
import FloorCore
import FloorSession
import Foundation

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
            Render.self, View.self, Check.self, Diff.self, Schema.self, Serve.self, Conform.self, Lock.self,
            ConformChild.self, ScanPlugin.self, ServeWorker.self,
        ],
        defaultSubcommand: Render.self)

    /// Before anything else, and so before any plugin is loaded: a child of floorhost dies with its parent,
    /// the process's own output is kept out of plugin code's reach (HostOutput), and relative paths keep
    /// meaning the folder floorhost was started in (WorkingDirectory).
    static func main() {
        if ProcessInfo.processInfo.environment["FLOORHOST_PRINT_CHILDREN"] != nil { printChildrenAndExit() }
        ChildProcess.dieWithParent()
        HostOutput.claim()
        WorkingDirectory.capture()
        main(nil)
    }
}
