import ArgumentParser
import FloorHost

/// The plugin folder option every command that renders or checks pages shares.
struct PluginOptions: ParsableArguments {
    @Option(help: "Folder of floor plugin libraries (*.so), searched up to 4 folders deep.")
    var plugins = "Plugins"

    /// Loads the plugins, or exits 1 with the reason when the folder is unusable.
    func load() throws -> FloorHost {
        do {
            return try FloorHost(pluginFolder: plugins)
        } catch {
            printError("error: \(error.message)")
            throw ExitCode(1)
        }
    }
}
