import FloorCore
import Foundation
import Hummingbird
import Prometheus
import Synchronization

/// What `GET /metrics` says, in Prometheus' text format (swift-prometheus's registry, whose collectors are
/// swift-metrics' CoreMetrics handlers), for whoever runs `serve` (README, "serve"):
/// - `floorkit_serve_sessions`, `floorkit_serve_event_streams`, `floorkit_serve_connections`: gauges, as
///   they are at the scrape;
/// - `floorkit_serve_worker_restarts_total`: workers started after the first (a plugin change, a crash);
/// - `floorkit_serve_request_duration_seconds{route}` (histogram; an event stream's is to its first byte)
///   and `floorkit_serve_responses_total{route,status}` (status class: 2xx, 3xx, 4xx, 5xx);
/// - `floorkit_serve_memory_bytes{process="server"|"worker",kind="heap"|"rss"}`: glibc's allocated bytes
///   (mallinfo2) and the resident set. The worker is asked at the scrape, behind whatever it is doing;
///   when it does not answer, its two lines are left out.
/// `route` is the route a request matched (page, view, fonts, ...), never its path, so the series are few.
/// Each server owns its registry (tests run several servers in one process): nothing goes through
/// MetricsSystem's one global bootstrap.
public final class ServeMetrics: Sendable {
    /// The routes, by the first segments of a path.
    package static let routes = [
        "index", "page", "layout", "view", "tap", "turn", "retry", "resize", "events", "fonts", "image",
        "script", "healthz", "metrics", "other",
    ]

    private let registry = PrometheusCollectorRegistry()
    private let connections: OpenConnections?
    private let sessions, streams, openConnections: Gauge
    private let restarts: Counter
    private let restartsCounted = Mutex(0)
    private let memory: [String: Gauge]
    private let durations: [String: DurationHistogram]
    private let answered: [String: Counter]
    private let streamCount = Mutex(0)

    public init(connections: OpenConnections? = nil) {
        self.connections = connections
        func name(_ metric: String, _ unit: String = "", help: String) -> MetricNameDescriptor {
            MetricNameDescriptor(
                namespace: "floorkit", subsystem: "serve", metricName: metric, unitName: unit, helpText: help)
        }
        sessions = registry.makeGauge(descriptor: name("sessions", help: "Preview sessions (tabs) kept."))
        streams = registry.makeGauge(descriptor: name("event_streams", help: "Tabs' event streams open."))
        openConnections = registry.makeGauge(descriptor: name("connections", help: "HTTP connections open."))
        restarts = registry.makeCounter(
            descriptor: name("worker_restarts", "total", help: "Preview workers started after the first."))
        var memory: [String: Gauge] = [:]
        let memoryName = name(
            "memory", "bytes", help: "Allocated heap (mallinfo2) and resident set of the server and its worker.")
        for process in ["server", "worker"] {
            for kind in ["heap", "rss"] {
                memory[process + kind] = registry.makeGauge(
                    descriptor: memoryName, labels: [("process", process), ("kind", kind)])
            }
        }
        self.memory = memory
        let buckets: [Duration] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000].map { .milliseconds($0) }
        let durationName = name(
            "request_duration", "seconds", help: "Time from a request to its response's head, by route.")
        let answeredName = name("responses", "total", help: "Responses by route and status class.")
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
        streams.set(Int64(streamCount.withLock { $0 }))
        openConnections.set(Int64(connections?.count ?? 0))
        let newRestarts = restartsCounted.withLock { counted in
            defer { counted = max(counted, health.workerRestarts) }
            return max(0, health.workerRestarts - counted)
        }
        if newRestarts > 0 { restarts.increment(by: Int64(newRestarts)) }
        let server = ProcessMemory.current
        memory["serverheap"]?.set(Int64(server.heap))
        memory["serverrss"]?.set(Int64(server.resident))
        if let worker = health.workerMemory {
            memory["workerheap"]?.set(Int64(worker.heap))
            memory["workerrss"]?.set(Int64(worker.resident))
        }
        var out: [UInt8] = []
        registry.emit(into: &out)
        // A worker that did not answer has no lines (its gauges would show their last values).
        guard health.workerMemory == nil else { return out }
        let text = String(decoding: out, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains(#"process="worker""#) }.joined(separator: "\n")
        return Array(text.utf8)
    }
}

/// The preview's side of `/metrics`.
public struct PreviewHealth: Sendable {
    public var sessions: Int
    public var workerRestarts: Int
    public var workerMemory: ProcessMemory?

    public init(sessions: Int, workerRestarts: Int = 0, workerMemory: ProcessMemory? = nil) {
        self.sessions = sessions
        self.workerRestarts = workerRestarts
        self.workerMemory = workerMemory
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
