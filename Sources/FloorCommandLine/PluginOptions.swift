import ArgumentParser
import FloorCore
import FloorRuntime
import FloorSession

/// The plugin folder option every command that renders or checks pages shares.
package struct PluginOptions: ParsableArguments {
    package init() {}

    @Option(help: "Folder of floor plugin libraries (*.so), searched up to 4 folders deep.")
    package var plugins = "Plugins"

    @Option(
        help: ArgumentHelp(
            "File remembering which plugin libraries crashed or hung when scanned in a child process (by path, size and modification time).",
            discussion:
                "Default: $FLOORKIT_PLUGIN_CACHE, else $XDG_CACHE_HOME/floorkit/plugin-scan.json, else ~/.cache/floorkit/plugin-scan.json.",
            valueName: "file"))
    package var pluginCache: String?

    @Option(
        help:
            "Seconds a new or changed plugin may spend in one step of loading or drawing its samples (1,000 rows a step) in the scanning child before it counts as hung."
    )
    package var pluginScanTimeout: Double = 10

    @Flag(
        inversion: .prefixedNo,
        help:
            "Scan new or changed plugin libraries in a child process before loading them; render and check also run in a child process that leaves out any floor a plugin crashes or hangs on."
    )
    package var pluginIsolation = true

    @Flag(
        help:
            "Load plugin libraries that others could have changed (a file or folder writable by group or others, or owned by another user than you or root), with a warning every run."
    )
    package var allowInsecurePlugins = false

    @Flag(
        help:
            "Require the plugin folder's plugins.lock (written by `floorhost lock`): refuse to run without one. Whenever the lock file exists, a library it does not pin by SHA-256 is refused."
    )
    package var locked = false

    @Option(help: ArgumentHelp(PageFields.allowFieldHelp, valueName: "name")) package var allowField: [String] = []

    /// Loads the plugins, or exits 1 with the reason when the folder is unusable. From here on, what plugin
    /// code prints goes to stderr (HostOutput).
    package func load() throws -> FloorHost {
        HostOutput.shieldFromPlugins()
        let cacheFile = pluginCache ?? PluginScanCache.defaultFile
        let isolation =
            pluginIsolation
            ? PluginIsolation(childCommand: childCommand(.scan), cacheFile: cacheFile, timeout: pluginScanTimeout)
            : nil
        do {
            // Without isolation the cache is only read: who keeps a floor type two plugins register is the same.
            let host = try FloorHost(
                pluginFolder: plugins, isolation: isolation,
                trust: PluginTrust(allowInsecure: allowInsecurePlugins, locked: locked, scanCache: cacheFile))
            host.allowedFields = AllowedFields(allowField)
            return host
        } catch {
            printError("error: \(error.message)")
            throw ExitCode(1)
        }
    }
}
