import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The driver of `floorhost view`: waits for keys, resizes, the end of a load's latency and (with
/// `--watch`) file changes, hands each to the PageViewer and draws a new frame after every batch. It owns
/// *when*; the viewer and the session own *what*.
public enum ViewLoop {
    public enum Ending: Equatable, Sendable {
        case quit
        /// A plugin library changed: a fresh process must load it; resume at this offset.
        case restart(offset: Double)
    }

    public struct Options: Sendable {
        /// Seconds each next-page load stays in flight before its rows arrive (0: at the next turn of the
        /// loop), so a person sees the loading state as on a phone.
        public var loadLatency: Double
        /// Reload when a page file or plugin library changes, checked every `watchInterval` seconds.
        public var watch: Bool
        public var watchInterval: Double
        /// Called with the scroll offset of every frame before it is drawn (the supervised view notes it: a
        /// plugin that crashes drawing it must not send the restarted view back to the previous frame).
        public var beforeFrame: @Sendable (Double) -> Void

        public init(loadLatency: Double = 0, watch: Bool = false, watchInterval: Double = 0.25,
                    beforeFrame: @escaping @Sendable (Double) -> Void = { _ in }) {
            self.loadLatency = loadLatency
            self.watch = watch
            self.watchInterval = watchInterval
            self.beforeFrame = beforeFrame
        }
    }

    public static func run(_ viewer: PageViewer, terminal: RawTerminal, pluginFolder: String, options: Options) -> Ending {
        var decoder = KeyDecoder()
        var files = WatchedFiles(pages: viewer.adapter.pages.map(\.file), pluginFolder: pluginFolder)
        var loadDue: Double?
        var nextWatch = now() + options.watchInterval
        var buffer = [UInt8](repeating: 0, count: 4096)
        func frame() {
            options.beforeFrame(viewer.session.viewport.offset)
            draw(viewer, terminal)
        }
        frame()
        while true {
            if viewer.isLoading, loadDue == nil { loadDue = now() + options.loadLatency }
            var deadlines: [Double] = []
            if let loadDue { deadlines.append(loadDue) }
            if options.watch { deadlines.append(nextWatch) }
            let timeout = deadlines.min().map { Int32(max(0, ($0 - now()) * 1000).rounded(.up)) } ?? -1
            var fds = [pollfd(fd: terminal.input, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: terminal.resizes, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, timeout)
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
                    } else if viewer.handle(key) == .quit {
                        return .quit
                    }
                }
                changed = true
            }
            if let due = loadDue, now() >= due {
                loadDue = nil
                viewer.deliverLoad()
                changed = true
            }
            if options.watch, now() >= nextWatch {
                nextWatch = now() + options.watchInterval
                if files.pluginsChanged { return .restart(offset: viewer.session.viewport.offset) }
                if files.pagesChanged(current: viewer.adapter.pages.map(\.file)) {
                    viewer.reload()
                    _ = files.pagesChanged(current: viewer.adapter.pages.map(\.file))
                    changed = true
                }
            }
            if changed { frame() }
        }
    }

    static func draw(_ viewer: PageViewer, _ terminal: RawTerminal) {
        try? terminal.output.write(TerminalFrame.bytes(TerminalFrame.lines(viewer)))
    }

    private static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
