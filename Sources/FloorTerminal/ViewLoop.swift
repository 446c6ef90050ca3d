import FloorRuntime
import FloorSession
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The driver of `floorhost view`: waits for keys, resizes, next pages fetched, a retry coming due, the end
/// of a load's latency and (with `--watch`) file changes, hands each to the PageViewer and draws a new
/// frame after every batch. It owns *when*; the viewer and the session own *what*. A next page is carried
/// by the viewer's load loop (LoadLoop): fetched on another thread while keys keep scrolling, and
/// delivered here, on this thread, when its arrival wakes the poll (LoadArrivals), no earlier than
/// `--load-latency` after it started; a retry coming due wakes the poll the same way.
public enum ViewLoop {
    public enum Ending: Equatable, Sendable {
        case quit
        /// Ctrl-C: as quit, and floorhost exits 130.
        case interrupted
        /// A plugin library changed: a fresh process must load it; resume at this offset.
        case restart(offset: Double)

        /// floorhost's exit status for a view that ended so: 130 (128 + SIGINT) after Ctrl-C, else 0.
        public var exitStatus: Int32 { self == .interrupted ? 130 : 0 }
    }

    public struct Options: Sendable {
        /// Seconds each next-page load stays in flight at least before its rows arrive (0: as soon as it is
        /// fetched), so a person sees the loading state as on a phone.
        public var loadLatency: Double
        /// Reload when a page file or plugin library changes, checked every `watchInterval` seconds.
        public var watch: Bool
        public var watchInterval: Double
        /// Called with the scroll offset of every frame before it is drawn (the supervised view notes it: a
        /// plugin that crashes drawing it must not send the restarted view back to the previous frame).
        public var beforeFrame: @Sendable (Double) -> Void

        public init(
            loadLatency: Double = 0, watch: Bool = false, watchInterval: Double = 0.25,
            beforeFrame: @escaping @Sendable (Double) -> Void = { _ in }
        ) {
            self.loadLatency = loadLatency
            self.watch = watch
            self.watchInterval = watchInterval
            self.beforeFrame = beforeFrame
        }
    }

    public static func run(_ viewer: PageViewer, terminal: RawTerminal, pluginFolder: String, options: Options)
        -> Ending
    {
        var decoder = KeyDecoder()
        var files = WatchedFiles(pages: viewer.adapter.pages.map(\.file), pluginFolder: pluginFolder)
        var nextWatch = now() + options.watchInterval
        var buffer = [UInt8](repeating: 0, count: 4096)
        // The viewer's load loop delivers no earlier than --load-latency after a load started. A reload
        // keeps the session and drops its load in flight: a result landing after it is refused by the
        // session's ticket check.
        viewer.loads.latency = options.loadLatency
        func frame() {
            options.beforeFrame(viewer.session.viewport.offset)
            draw(viewer, terminal)
        }
        frame()
        while true {
            let waiting = !viewer.session.isFetching
            viewer.loads.pump()
            if waiting && viewer.session.isFetching { frame() }  // a due retry shows as loading again
            var deadlines: [Double] = []
            // While a retry waits, the status line counts down: a frame every half second until it is due.
            if let due = viewer.session.retryDue { deadlines.append(min(due, now() + 0.5)) }
            if options.watch { deadlines.append(nextWatch) }
            // Impressions run on the same monotonic clock (ImpressionClock.wall, in ms).
            if let due = viewer.impressionDue { deadlines.append(due / 1000) }
            let timeout = deadlines.min().map { Int32(min(max(0, ($0 - now()) * 1000).rounded(.up), 3_600_000)) } ?? -1
            var fds = [
                pollfd(fd: terminal.input, events: Int16(POLLIN), revents: 0),
                pollfd(fd: terminal.resizes, events: Int16(POLLIN), revents: 0),
                pollfd(fd: viewer.arrivals.descriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 3, timeout)
            if ready < 0 && errno != EINTR { return .quit }
            var changed = false
            if fds[1].revents != 0 {
                while read(terminal.resizes, &buffer, buffer.count) > 0 {}
                let size = terminal.size
                viewer.resize(columns: size.columns, lines: size.lines)
                changed = true
            }
            if fds[0].revents != 0 {
                let n = read(terminal.input, &buffer, buffer.count)
                if n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN) { return .quit }  // the terminal is gone
                for key in decoder.keys(from: buffer.prefix(max(0, n))) {
                    if key == .character("r") {
                        if files.pluginsChanged { return .restart(offset: viewer.session.viewport.offset) }
                        viewer.reload()
                        _ = files.pagesChanged(current: viewer.adapter.pages.map(\.file))
                    } else {
                        switch viewer.handle(key) {
                        case .quit: return .quit
                        case .interrupted: return .interrupted
                        case .redraw: break
                        }
                    }
                }
                changed = true
            }
            // Loads fetched (or retries come due) since the last look: delivered here, after the keys.
            if fds[2].revents != 0, viewer.arrivals.run() { changed = true }
            if viewer.session.retryDue != nil { changed = true }
            if options.watch, now() >= nextWatch {
                nextWatch = now() + options.watchInterval
                if files.pluginsChanged { return .restart(offset: viewer.session.viewport.offset) }
                if files.pagesChanged(current: viewer.adapter.pages.map(\.file)) {
                    viewer.reload()
                    _ = files.pagesChanged(current: viewer.adapter.pages.map(\.file))
                    changed = true
                }
            }
            if viewer.observeImpressions() { changed = true }
            if changed { frame() }
        }
    }

    package static func draw(_ viewer: PageViewer, _ terminal: RawTerminal) {
        try? terminal.output.write(TerminalFrame.bytes(TerminalFrame.lines(viewer)))
    }

    private static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
