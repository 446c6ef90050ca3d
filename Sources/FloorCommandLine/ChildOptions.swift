import ArgumentParser
import FloorCore
import FoundationEssentials

// Every child floorhost (or floorhost-serve) starts of itself, and what it is given: written from the
// parent's parsed options. Each command and option group writes every option it has (`write`: the shared
// groups here, each command beside its own definition in its executable); a child gets them all but those its
// `parentOnly` names, and its launcher adds only what the launcher alone knows (--crash-record-fd,
// --skip-floor, --page-ordinal, --share's pages, --offset, the plugin library). ChildArgumentsTests holds
// this to every option `floorhost <command> --experimental-dump-help` declares.

extension Child {
    /// The child's subcommand (and its own flags), after the program.
    func subcommand(of parent: Any.Type) -> [String] {
        switch self {
        case .supervised, .restart: [(parent as? any ParsableCommand.Type)?._commandName ?? ""]
        case .share: [Self.checkCommand, "--share"]
        case .worker: [Self.workerCommand]
        case .conform: [Self.conformCommand]
        case .scan: [Self.scanCommand]
        }
    }

    /// The names of the commands children run, which those commands take from here.
    package static let checkCommand = "check"
    package static let workerCommand = "serve-worker"
    package static let conformCommand = "conform-child"
    package static let scanCommand = "scan-plugin"
}

/// A command or option group that writes its parsed options for a child, every one of them.
package protocol ChildOptions {
    func write(to arguments: inout ChildArguments)
}

extension ChildOptions {
    /// The child's command line: this program, the child's subcommand and what it is given of these options.
    package func childCommand(_ child: Child) -> [String] {
        [Child.executable] + child.subcommand(of: Self.self) + childArguments(child)
    }

    /// What the child is given of these options, without the program and the subcommand: the arguments its
    /// command parses.
    package func childArguments(_ child: Child) -> [String] {
        var arguments = ChildArguments(parentOnly: child.parentOnly)
        write(to: &arguments)
        return arguments.arguments
    }
}

/// A command that starts children of floorhost.
package protocol ChildLauncher: ChildOptions {
    var children: [Child] { get }
}

/// With FLOORHOST_PRINT_CHILDREN set (ChildArgumentsTests): parses the arguments as `root`'s, prints each
/// child the command starts as JSON (its command line without the program, and its parentOnly), and exits 0
/// starting nothing.
package func printChildrenAndExit(_ root: any ParsableCommand.Type) -> Never {
    do {
        guard let launcher = try root.parseAsRoot() as? any ChildLauncher else { Child.printAndExit([]) }
        Child.printAndExit(launcher.children.map { ($0, Array(launcher.childCommand($0).dropFirst())) })
    } catch {
        root.exit(withError: error)
    }
}

extension PluginOptions: ChildOptions {
    package func write(to a: inout ChildArguments) {
        a.options(["--plugins": plugins, "--plugin-cache": pluginCache, "--plugin-scan-timeout": pluginScanTimeout])
        a.flag("--plugin-isolation", pluginIsolation, inversion: "--no-plugin-isolation")
        a.flags(["--allow-insecure-plugins": allowInsecurePlugins, "--locked": locked])
        a.repeated("--allow-field", allowField)
    }
}

extension ContainmentOptions: ChildOptions {
    package func write(to a: inout ChildArguments) {
        a.options(["--plugin-call-timeout": pluginCallTimeout, "--crash-record-fd": crashRecord])
        a.repeated("--skip-floor", skipFloor.map(\.argument))
    }
}

extension PageRootOptions: ChildOptions {
    package func write(to a: inout ChildArguments) {
        a.options(["--page-root": pageRoot, "--max-page-bytes": maxPageBytes, "--max-pages": maxPages])
    }
}

extension RemotePageOptions: ChildOptions {
    package func write(to a: inout ChildArguments) {
        a.options(["--load-timeout": loadTimeout, "--ca-file": caFile?.path])
        a.repeated("--allow-origin", allowOrigin)
    }
}
