import ArgumentParser
import FloorCommandLine
import FloorCore
import FloorRender
import FloorSession
import FloorTerminal
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

struct View: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view", abstract: KeyHelp.abstract, discussion: KeyHelp.discussion)

    @OptionGroup var plugins: PluginOptions

    @Argument(help: "The page: a JSON file, or an http:// or https:// URL.")
    var page: String

    @Flag(help: "Reload when the page file (or a next page already loaded) or a plugin library changes.")
    var watch = false

    @Option(
        name: .customLong("load-latency"),
        help: ArgumentHelp(
            "Milliseconds each next-page load stays in flight at least (its fetch runs meanwhile), to see the loading state as on a phone.",
            valueName: "ms"))
    var loadLatency: Double = 0

    @Option(help: ArgumentHelp("Start scrolled this many points down the page.", valueName: "y"))
    var offset: Double = 0

    @Option(
        help:
            "Retry a failed next-page load up to N times, with backoff (as render's --retry; the status line counts down, R retries at once and after the last)."
    )
    var retry = 0

    @OptionGroup var loading: LoadStateOptions

    @Option(
        help: ArgumentHelp(
            "Bold, muted and accent (prices) text in colour: auto (unless NO_COLOR is set), always or never.",
            valueName: "when"))
    var color: ColorChoice = .auto

    @Option(help: "Layout width in points, whatever the terminal's width (default: 5 points a column).")
    var width: Double?

    @OptionGroup var containment: ContainmentOptions
    @OptionGroup var pages: PageRootOptions
    @OptionGroup var remote: RemotePageOptions

    func validate() throws {
        if !(loadLatency >= 0 && loadLatency <= 60_000) {
            throw ValidationError("--load-latency takes milliseconds from 0 to 60000, e.g. --load-latency 400")
        }
        if !(offset >= 0 && offset.isFinite) {
            throw ValidationError("--offset takes points from the top, 0 or more, e.g. --offset 1200")
        }
        if retry < 0 { throw ValidationError("--retry must be 0 or more") }
        if let width, !(width >= 1 && width <= 100_000) {
            throw ValidationError("--width must be between 1 and 100000")
        }
    }

    func run() throws {
        var terminal: RawTerminal
        do {
            terminal = try RawTerminal()
        } catch {
            printError("error: \(error.message)")
            throw ExitCode(1)
        }
        // With isolation this process only supervises: a child runs the view, and a floor a plugin crashes
        // or hangs on is left out of the next attempt. A child that ended abnormally may have left the
        // terminal raw: put it back here.
        do {
            try containment.superviseUnlessChild(isolation: plugins.pluginIsolation, command: self)
        } catch let exit as ExitCode where exit != .success {
            terminal.enter()
            terminal.restore()
            throw exit
        }
        let root = try pages.root(for: page)
        let host = try plugins.load()
        try containment.attach(host)
        let session = ViewLoop.Session(
            prefetch: loading.prefetchRule, retries: retry, impressions: loading.impression,
            styled: color.styled(outputIsTerminal: true, environment: ProcessEnvironment.values(of: ["NO_COLOR"])),
            width: width
        )
        let (ending, report) = try unusableInput {
            try ViewLoop.open(
                page, host: host, root: root, remote: remote.client(maxPageBytes: pages.maxPageBytes),
                session: session, terminal: terminal, from: offset, pluginFolder: plugins.plugins,
                options: ViewLoop.Options(loadLatency: loadLatency / 1000, watch: watch))
        }
        for line in report { printError(line) }
        guard case .restart(let offset) = ending else { return try containment.finish(ending.exitStatus) }
        // A plugin library changed: only a fresh process can load it (a loaded library is never unloaded), so
        // this one becomes that process, with the same options and the position kept.
        let failure = ChildProcess.replaceProcess(
            with: ChildArguments.inserting(["--offset", "\(offset)"], into: childCommand(.restart)))
        printError("error: cannot start floorhost again to load the changed plugins: \(failure)")
        Glibc.exit(1)
    }
}
