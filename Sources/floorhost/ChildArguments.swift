import ArgumentParser
import FloorCore
import Foundation

// Every child floorhost starts of itself, and what it is given: written here, in one place, from the
// parent's parsed options. Each command and option group writes every option it has (`write`); a child gets
// them all but those its `parentOnly` names, and its launcher adds only what the launcher alone knows
// (--crash-record-fd, --skip-floor, --page-ordinal, --share's pages, --offset, the plugin library).
// ChildArgumentsTests holds this to every option `floorhost <command> --experimental-dump-help` declares.

extension Child {
    /// The child's subcommand (and its own flags), after the program.
    func subcommand(of parent: Any.Type) -> [String] {
        switch self {
        case .supervised, .restart: [(parent as? any ParsableCommand.Type)?._commandName ?? ""]
        case .share: [Check._commandName, "--share"]
        case .worker: [ServeWorker._commandName]
        case .conform: [ConformChild._commandName]
        case .scan: [ScanPlugin._commandName]
        }
    }
}

/// A command or option group that writes its parsed options for a child, every one of them.
protocol ChildOptions {
    func write(to arguments: inout ChildArguments)
}

extension ChildOptions {
    /// The child's command line: this program, the child's subcommand and what it is given of these options.
    func childCommand(_ child: Child) -> [String] {
        var arguments = ChildArguments(parentOnly: child.parentOnly)
        write(to: &arguments)
        return [Child.executable] + child.subcommand(of: Self.self) + arguments.arguments
    }
}

/// A command that starts children of floorhost.
protocol ChildLauncher: ChildOptions {
    var children: [Child] { get }
}

/// With FLOORHOST_PRINT_CHILDREN set (ChildArgumentsTests): parses the arguments, prints each child the command
/// starts as JSON (its command line without the program, and its parentOnly), and exits 0 starting nothing.
func printChildrenAndExit() -> Never {
    do {
        guard let launcher = try FloorHostCommand.parseAsRoot() as? any ChildLauncher else { Child.printAndExit([]) }
        Child.printAndExit(launcher.children.map { ($0, Array(launcher.childCommand($0).dropFirst())) })
    } catch {
        FloorHostCommand.exit(withError: error)
    }
}

extension PluginOptions: ChildOptions {
    func write(to a: inout ChildArguments) {
        a.options(["--plugins": plugins, "--plugin-cache": pluginCache, "--plugin-scan-timeout": pluginScanTimeout])
        a.flag("--plugin-isolation", pluginIsolation, inversion: "--no-plugin-isolation")
        a.flags(["--allow-insecure-plugins": allowInsecurePlugins, "--locked": locked])
        a.repeated("--allow-field", allowField)
    }
}

extension ContainmentOptions: ChildOptions {
    func write(to a: inout ChildArguments) {
        a.options(["--plugin-call-timeout": pluginCallTimeout, "--crash-record-fd": crashRecord])
        a.repeated("--skip-floor", skipFloor.map(\.argument))
    }
}

extension PageRootOptions: ChildOptions {
    func write(to a: inout ChildArguments) {
        a.options(["--page-root": pageRoot, "--max-page-bytes": maxPageBytes, "--max-pages": maxPages])
    }
}

extension RemotePageOptions: ChildOptions {
    func write(to a: inout ChildArguments) {
        a.options(["--load-timeout": loadTimeout, "--ca-file": caFile?.path])
        a.repeated("--allow-origin", allowOrigin)
    }
}

extension LoadStateOptions: ChildOptions {
    func write(to a: inout ChildArguments) {
        a.options(["--load-more-distance": loadMoreDistance, "--impression": impression])
        a.repeated("--prefetch", prefetch)
    }
}

extension Render: ChildLauncher {
    var children: [Child] { [.supervised] }
    func write(to a: inout ChildArguments) {
        for group in [plugins, containment, pages, remote, loading] as [any ChildOptions] { group.write(to: &a) }
        a.options([
            "--format": format.rawValue, "--width": width, "--viewport": viewport, "--scroll-to": scrollTo,
            "--tap": tap, "--retry": retry, "--dispatch": dispatch.rawValue, "--color": color.rawValue,
        ])
        a.flag("--gutter", gutter)
        a.argument("page", page)
    }
}

extension View: ChildLauncher {
    var children: [Child] { [.supervised, .restart] }
    func write(to a: inout ChildArguments) {
        for group in [plugins, containment, pages, remote, loading] as [any ChildOptions] { group.write(to: &a) }
        a.options([
            "--load-latency": loadLatency, "--offset": offset, "--retry": retry, "--color": color.rawValue,
            "--width": width,
        ])
        a.flag("--watch", watch)
        a.argument("page", page)
    }
}

extension Check: ChildLauncher {
    var children: [Child] { [.supervised, .share] }
    func write(to a: inout ChildArguments) {
        for group in [plugins, containment, pages, remote] as [any ChildOptions] { group.write(to: &a) }
        a.options(["--format": format.rawValue, "--jobs": jobs])
        a.flag("--share", share)
        a.option("--shard", shard)
        a.flag("--strict", strict)
        a.argument("page", page)
    }
}

extension Diff: ChildLauncher {
    var children: [Child] { [.supervised] }
    func write(to a: inout ChildArguments) {
        for group in [plugins, containment, pages, remote] as [any ChildOptions] { group.write(to: &a) }
        a.options(["--format": format.rawValue, "--width": width])
        a.argument("old", old)
        a.argument("new", new)
    }
}

extension Serve: ChildLauncher {
    var children: [Child] { [.worker] }
    func write(to a: inout ChildArguments) {
        for group in [plugins, containment, remote] as [any ChildOptions] { group.write(to: &a) }
        a.options(["--host": host, "--port": port, "--max-page-bytes": maxPageBytes, "--retry": retry])
        a.options(["--max-pages": maxPages])
        a.repeated("--allow-host", allowHost)
        a.options(["--access-log": accessLog])
        a.argument("root", root)
    }
}

extension Conform: ChildLauncher {
    var children: [Child] { [.conform] }
    func write(to a: inout ChildArguments) {
        a.options([
            "--format": format.rawValue, "--timeout": timeout, "--call-limit": callLimit, "--snapshots": snapshots,
            "--seed": seed, "--duration": duration, "--reproduce": reproduce,
        ])
        a.repeated("--include", include)
        a.repeated("--exclude", exclude)
        a.flags(["--record": record, "--verify": verify, "--fuzz": fuzz])
        a.argument("paths", paths)
    }
}

extension Schema: ChildLauncher {
    var children: [Child] { [.scan] }
    func write(to a: inout ChildArguments) { plugins.write(to: &a) }
}
