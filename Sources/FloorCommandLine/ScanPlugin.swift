import ArgumentParser
import FloorCore
import FloorRender
import FloorRuntime
import FloorSession

/// The child half of plugin isolation: not for people. Loads one plugin library in this process and
/// draws its sample floors, so that the parent learns whether it crashes or hangs (see PluginScanner).
package struct ScanPlugin: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: Child.scanCommand,
        abstract: "Load one plugin and draw its samples in this process (used to isolate plugins).",
        shouldDisplay: false)

    @Argument package var library: String

    package func run() throws {
        let status = PluginScanner.scanHere(library)
        if status != 0 { throw ExitCode(status) }
    }
}
