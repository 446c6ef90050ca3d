import FloorCore
import Foundation
import Hummingbird
import Prometheus
import Synchronization

/// What `GET /metrics` says, in Prometheus' text format (swift-prometheus's registry, whose collectors are
/// swift-metrics' CoreMetrics handlers), for whoever runs `serve` (README, "serve"):
/// - `floorkit_serve_sessions`, `floorkit_serve_live_tabs` (SessionEviction's live: an event stream open or
///   a recent view report), `floorkit_serve_event_streams`, `floorkit_serve_connections`: gauges, as they
///   are at the scrape;
/// - `floorkit_serve_worker_restarts_total`: workers started after the first (a plugin change, a crash);
/// - `floorkit_serve_connections_closed_total{reason}`: connections the server closed itself, `cap`
///   (ConnectionLimits' cap), `header_timeout`, `body_too_large` (OpenConnections.Closes);
/// - `floorkit_serve_request_duration_seconds{route}` (histogram; an event stream's is to its first byte)
///   and `floorkit_serve_responses_total{route,status}` (status class: 2xx, 3xx, 4xx, 5xx);
/// - `floorkit_serve_memory_bytes{process="server"|"worker",kind="heap"|"rss"}`: glibc's allocated bytes
///   (mallinfo2) and the resident set, and `floorkit_serve_worker_memory_age_seconds`, how old the worker's
///   two are. The scrape never waits behind a busy worker (WorkerPreview.health): the worker's lines are its
///   last reading, and are left out while the current worker has given none (and in process).
/// `route` is the route a request matched (page, view, fonts, ...), never its path, so the series are few.
///
/// Each server owns its registry and makes its metrics on it directly: nothing goes through swift-metrics'
/// MetricsSystem.bootstrap, which can be called once per process, while a test process runs several servers
/// (and each server's numbers must be its own, not a process-wide sum).
public final class ServeMetrics: Sendable {
    /// The routes, by the first segments of a path.
    package static let routes = [
        "index", "page", "layout", "view", "tap", "turn", "retry", "resize", "events", "fonts", "image",
        "script", "healthz", "metrics", "other",
    ]

    private let registry = PrometheusCollectorRegistry()
    private let connections: OpenConnections?
    private let sessions, liveTabs, streams, openConnections, serverHeap, serverResident: Gauge
    private let restarts, closedAtCap, closedForTimeout, closedForBodySize: FollowedCounter
    /// The worker's gauges, registered while there is a reading to show.
    private let workerGauges = Mutex<(heap: Gauge, resident: Gauge, age: Gauge)?>(nil)
    private let durations: [String: DurationHistogram]
    private let answered: [String: Counter]
    private let streamCount = Mutex(0)

    public init(connections: OpenConnections? = nil) {
        self.connections = connections
        sessions = registry.makeGauge(descriptor: Self.name("sessions", help: "Preview sessions (tabs) kept."))
        liveTabs = registry.makeGauge(
            descriptor: Self.name("live_tabs", help: "Sessions whose tab has an event stream or reported recently."))
        streams = registry.makeGauge(descriptor: Self.name("event_streams", help: "Tabs' event streams open."))
        openConnections = registry.makeGauge(descriptor: Self.name("connections", help: "HTTP connections open."))
        restarts = FollowedCounter(
            registry.makeCounter(
                descriptor: Self.name("worker_restarts", "total", help: "Preview workers started after the first.")))
        let closedName = Self.name("connections_closed", "total", help: "Connections the server closed itself, by why.")
        let registry = registry
        func closed(_ reason: String) -> FollowedCounter {
            FollowedCounter(registry.makeCounter(descriptor: closedName, labels: [("reason", reason)]))
        }
        closedAtCap = closed("cap")
        closedForTimeout = closed("header_timeout")
        closedForBodySize = closed("body_too_large")
        serverHeap = registry.makeGauge(descriptor: Self.memoryName, labels: [("process", "server"), ("kind", "heap")])
        serverResident = registry.makeGauge(
            descriptor: Self.memoryName, labels: [("process", "server"), ("kind", "rss")])
        let buckets: [Duration] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000].map { .milliseconds($0) }
        let durationName = Self.name(
            "request_duration", "seconds", help: "Time from a request to its response's head, by route.")
        let answeredName = Self.name("responses", "total", help: "Responses by route and status class.")
        var durations: [String: DurationHistogram] = [:]
        var answered: [String: Counter] = [:]
        for route in Self.routes {
            durations[route] = registry.makeDurationHistogram(
                descriptor: durationName, labels: [("route", route)], buckets: buckets)
            for status in ["2xx", "3xx", "4xx", "5xx"] {
                answered[route + status] = registry.makeCounter(
                    descriptor: answeredName, labels: [("route", route), ("status", status)])
            }
        }
        self.durations = durations
        self.answered = answered
    }

    private static func name(_ metric: String, _ unit: String = "", help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "floorkit", subsystem: "serve", metricName: metric, unitName: unit, helpText: help)
    }

    private static var memoryName: MetricNameDescriptor {
        name("memory", "bytes", help: "Allocated heap (mallinfo2) and resident set of the server and its worker.")
    }

    /// The route of a request path (`/api/sessions/<id>/view` is `view`).
    package static func route(of path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        switch parts.first {
        case nil: return "index"
        case "page", "layout", "fonts", "image", "healthz", "metrics": return String(parts[0])
        case "serve.js": return "script"
        case "api" where parts.count == 4 && parts[1] == "sessions":
            switch parts[3] {
            case "view", "tap", "retry", "resize", "events": return String(parts[3])
            case "page": return "turn"
            default: return "other"
            }
        default: return "other"
        }
    }

    package func answered(_ route: String, status: Int, after duration: Duration) {
        let route = durations[route] == nil ? "other" : route
        durations[route]?.record(duration)
        let status = "\(min(5, max(2, status / 100)))xx"
        answered[route + status]?.increment()
    }

    /// An event stream opened (+1) or ended (-1).
    package func stream(_ change: Int) { streamCount.withLock { $0 += change } }

    /// The exposition, with the gauges read now.
    package func exposition(_ health: PreviewHealth) -> [UInt8] {
        sessions.set(Int64(health.sessions))
        liveTabs.set(Int64(health.liveTabs))
        streams.set(Int64(streamCount.withLock { $0 }))
        openConnections.set(Int64(connections?.count ?? 0))
        restarts.follow(health.workerRestarts)
        let closes = connections?.closed ?? OpenConnections.Closes()
        closedAtCap.follow(closes.atCap)
        closedForTimeout.follow(closes.headerTimeout)
        closedForBodySize.follow(closes.bodyTooLarge)
        let server = ProcessMemory.current
        serverHeap.set(Int64(server.heap))
        serverResident.set(Int64(server.resident))
        showWorker(health.workerMemory)
        return registry.emitToBuffer()
    }

    /// The worker's lines: its last reading, or none (gauges left registered would show stale values).
    private func showWorker(_ reading: WorkerMemoryReading?) {
        workerGauges.withLock { gauges in
            guard let reading else {
                if let shown = gauges {
                    for gauge in [shown.heap, shown.resident, shown.age] { registry.unregisterGauge(gauge) }
                }
                gauges = nil
                return
            }
            let shown =
                gauges
                ?? (
                    registry.makeGauge(descriptor: Self.memoryName, labels: [("process", "worker"), ("kind", "heap")]),
                    registry.makeGauge(descriptor: Self.memoryName, labels: [("process", "worker"), ("kind", "rss")]),
                    registry.makeGauge(
                        descriptor: Self.name(
                            "worker_memory_age", "seconds", help: "How long ago the worker's memory was read."))
                )
            gauges = shown
            shown.heap.set(Int64(reading.memory.heap))
            shown.resident.set(Int64(reading.memory.resident))
            let age = ContinuousClock.now - reading.read
            shown.age.set(Double(age.components.seconds) + Double(age.components.attoseconds) * 1e-18)
        }
    }
}

/// A Prometheus counter whose total is kept elsewhere (workers started, connections closed), caught up at
/// each scrape. A counter only goes up: a total lower than one seen before adds nothing.
private final class FollowedCounter: Sendable {
    private let counter: Counter
    private let seen = Mutex(0)

    init(_ counter: Counter) { self.counter = counter }

    func follow(_ total: Int) {
        let added = seen.withLock { seen in
            defer { seen = max(seen, total) }
            return max(0, total - seen)
        }
        if added > 0 { counter.increment(by: Int64(added)) }
    }
}

/// Times each request and counts its response by route (ServeMetrics); outside JSONErrors, so a refusal is
/// counted with the status it was answered with.
package struct RouteMetrics<Context: RequestContext>: RouterMiddleware {
    package let metrics: ServeMetrics

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let started = ContinuousClock.now
        let route = ServeMetrics.route(of: request.uri.path)
        do {
            let response = try await next(request, context)
            metrics.answered(route, status: Int(response.status.code), after: ContinuousClock.now - started)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.answered(route, status: Int(status), after: ContinuousClock.now - started)
            throw error
        }
    }
}
