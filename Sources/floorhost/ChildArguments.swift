import ArgumentParser
import FloorCommandLine
import FloorCore

// What each of floorhost's commands gives the children it starts (ChildOptions, FloorCommandLine's
// ChildOptions.swift): every option it has.

extension LoadStateOptions: ChildOptions {
    func write(to a: inout ChildArguments) {
        a.options(["--load-more-distance": loadMoreDistance, "--impression": impression])
        a.repeated("--prefetch", prefetch)
    }
}

extension Render: SupervisedCommand {
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

extension View: SupervisedCommand {
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

extension Check: SupervisedCommand {
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

extension Diff: SupervisedCommand {
    var children: [Child] { [.supervised] }
    func write(to a: inout ChildArguments) {
        for group in [plugins, containment, pages, remote] as [any ChildOptions] { group.write(to: &a) }
        a.options(["--format": format.rawValue, "--width": width])
        a.argument("old", old)
        a.argument("new", new)
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
