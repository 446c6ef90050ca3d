import ArgumentParser
import FloorCommandLine
import FloorCore
import FloorRuntime
import FloorSession

struct Lock: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Pin the plugin folder's libraries by SHA-256 in DIR/plugins.lock, after reviewing them.",
        discussion: """
            Writes every library's file name, plugin id, version and SHA-256. While plugins.lock exists (or \
            with --locked), render and check refuse a library that is not in it or whose bytes changed. \
            Run it again after reviewing a new or updated plugin. Each library is opened to read its id \
            and version (its init is not called).
            Example: floorhost lock --plugins Plugins/
            """)

    @Option(help: "Folder of floor plugin libraries (*.so), searched up to 4 folders deep.")
    var plugins = "Plugins"

    func run() throws {
        let lock: PluginLock
        do {
            HostOutput.shieldFromPlugins()
            lock = try PluginLock.write(folder: plugins)
        } catch {
            printError("error: \(error.message)")
            throw ExitCode(1)
        }
        for line in lock.lines(folder: plugins) { try writeOutput(line: line) }
    }
}
