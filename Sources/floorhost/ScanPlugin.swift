import ArgumentParser
import FloorRuntime
import FloorSession

/// The child half of plugin isolation: not for people. Loads one plugin library in this process and
/// draws its sample floors, so that the parent learns whether it crashes or hangs (see PluginScanner).
struct ScanPlugin: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan-plugin",
        abstract: "Load one plugin and draw its samples in this process (used to isolate plugins).",
        shouldDisplay: false)

    @Argument var library: String

    func run() throws {
        let status = PluginScanner.scanHere(library)
        if status != 0 { throw ExitCode(status) }
    }
}
