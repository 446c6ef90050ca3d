import ServiceLifecycle

/// Live reload: looks at the files of every open page a few times a second (Preview.reloadChangedPages:
/// a stat per file, no read) and rebuilds the sessions whose files changed; their tabs are pushed
/// "reload". Polling rather than inotify: it sees saves through symlinks, renames over the file, and
/// editors' temporary files alike, at the cost of `interval` of latency (50 ms by default). Every
/// `pingEvery` it also pings the tabs' push streams, so a stream whose tab went away is noticed and
/// dropped. On graceful shutdown it ends every push stream, so open tabs do not hold the server up.
public struct PageWatcher: Service {
    public let preview: Preview
    public let interval: Duration
    public let pingEvery: Duration

    public init(preview: Preview, interval: Duration = .milliseconds(50), pingEvery: Duration = .seconds(15)) {
        self.preview = preview
        self.interval = interval
        self.pingEvery = pingEvery
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown { await runUntilCancelled() }
        preview.endPushes()
    }

    /// Watches until the task is cancelled (a serve worker, which has no service group, runs this).
    public func runUntilCancelled() async {
        let clock = ContinuousClock()
        var lastPing = clock.now
        while !Task.isCancelled {
            preview.reloadChangedPages()
            if clock.now - lastPing >= pingEvery {
                preview.ping()
                lastPing = clock.now
            }
            try? await Task.sleep(for: interval)
        }
    }
}
