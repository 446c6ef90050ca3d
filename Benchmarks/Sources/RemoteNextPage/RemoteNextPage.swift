import FloorSession
// A next page over loopback HTTP, from the request to its rows laid out (issue 13): the time floorhost adds
// to the server's own. Scripts/bench --only remote starts Tests/Fixtures/PageServer/page_server.py on a
// chain of pages (make_page.py chain, 20 products a page) with --timing, then runs this:
//
//   RemoteNextPage PLUGINS URL_OF_PAGE_0 LOADS SERVER_TIMING_FILE [CA_FILE]
//
// (an https URL with the CA that signed the server's certificate, as `--ca-file` takes it, for the same over TLS)
//
// It opens a session on page 0 and, LOADS times, scrolls to the end (the LoadMore rules request the next
// page), and lets a LoadLoop carry the load as `view` and `serve` do (fetched on a Dispatch thread, delivered
// through the loop's hop: decode, extend the feed, lay the new rows out). Each load's time is taken from just
// before the loop's `pump` to its `delivered` step; the server's own time for the same request (its log, in order) is
// taken off it. Prints one JSON object: p50/p95/max of the total, the server's time and the difference.
import Foundation

@main
struct RemoteNextPage {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 5 || arguments.count == 6, let loads = Int(arguments[3]) else {
            FileHandle.standardError.write(
                Data("usage: RemoteNextPage PLUGINS URL_OF_PAGE_0 LOADS SERVER_TIMING_FILE [CA_FILE]\n".utf8))
            exit(64)
        }
        let client = RemotePageClient(caFile: arguments.count == 6 ? try CAFile(path: arguments[5]) : nil)
        let host = try FloorHost(pluginFolder: arguments[1])
        let adapter = try host.layout(page: arguments[2], remote: client, width: 375)
        let session = PageSession(
            adapter: adapter, viewportHeight: 812, source: PageSource(registry: host.registry, remote: client),
            deliversLoadsImmediately: false)
        // The session's thread is this task's: it waits while the loop fetches, so the hop delivers in place,
        // and the task goes on only once the hop's work is done (the delivery and the loop's pump after it),
        // so that the two never touch the session at once.
        let delivery = Delivery()
        let loop = LoadLoop(
            session: session,
            hop: { work in
                work()
                delivery.finish()
            })
        // The server's log so far holds page 0: the loads' lines follow it.
        let serverLinesBefore = lines(arguments[4]).count
        var totals: [Double] = []
        for _ in 0..<loads {
            session.scroll(to: session.maxOffset)
            let rowsBefore = session.adapter.rowCount
            let start = DispatchTime.now().uptimeNanoseconds
            guard await deliverOne(loop, delivery) else { break }
            let end = DispatchTime.now().uptimeNanoseconds
            guard session.adapter.rowCount == rowsBefore + 20 else {
                FileHandle.standardError.write(
                    Data("RemoteNextPage: a load did not add 20 rows: \(session.loadMore.state)\n".utf8))
                exit(1)
            }
            totals.append(Double(end - start) / 1e6)
        }
        // The server logs a request's time after its last byte went out: the last line may lag the answer.
        var server: [Double] = []
        let deadline = Date().addingTimeInterval(5)
        repeat {
            server = lines(arguments[4]).dropFirst(serverLinesBefore).compactMap(Double.init)
            if server.count < totals.count { usleep(10_000) }
        } while server.count < totals.count && Date() < deadline
        guard server.count == totals.count, totals.count >= 20 else {
            FileHandle.standardError.write(
                Data("RemoteNextPage: \(totals.count) loads timed, \(server.count) server times\n".utf8))
            exit(1)
        }
        // The first loads open the connection and warm the caches: the figures are for the loads after them.
        let warm = 5
        let overhead = zip(totals, server).map { $0 - $1 }
        func summary(_ values: ArraySlice<Double>) -> [String: Double] {
            let sorted = values.sorted()
            func p(_ q: Double) -> Double {
                sorted[min(sorted.count - 1, Int((q * Double(sorted.count)).rounded(.up)) - 1)]
            }
            return ["p50": p(0.5), "p95": p(0.95), "max": sorted.last!]
        }
        let result: [String: Any] = [
            "loads": totals.count - warm, "itemsPerPage": 20,
            "total_ms": summary(totals.dropFirst(warm)), "server_ms": summary(server.dropFirst(warm)),
            "overhead_ms": summary(overhead.dropFirst(warm)),
        ]
        let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }

    static func lines(_ file: String) -> [String] {
        ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Starts the session's next load through `loop` and waits for its delivery; false when there was none.
    /// The loop says `started` inside `pump`, on this thread, and `delivered` once, from its fetch's thread,
    /// whose hop then finishes `delivery`.
    static func deliverOne(_ loop: LoadLoop, _ delivery: Delivery) async -> Bool {
        await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            var started = false
            delivery.await(done)
            loop.onStep = { step in
                switch step {
                case .started: started = true
                case .delivered: delivery.delivered()
                }
            }
            loop.pump()
            if !started { delivery.none() }
        }
    }
}

/// The load deliverOne waits for: resumed by the hop once its work (the delivery, then the loop's pump) is
/// done, not from inside it. Threading: any thread, under a lock.
final class Delivery: @unchecked Sendable {
    private let lock = NSLock()
    private var waiting: CheckedContinuation<Bool, Never>?
    private var arrived = false

    func await(_ continuation: CheckedContinuation<Bool, Never>) {
        lock.withLock {
            waiting = continuation
            arrived = false
        }
    }

    /// The loop delivered the load (inside the hop's work).
    func delivered() { lock.withLock { arrived = true } }

    /// The hop's work is done: resumes the waiter if that work delivered its load.
    func finish() {
        let resume: CheckedContinuation<Bool, Never>? = lock.withLock {
            guard arrived, let waiting else { return nil }
            self.waiting = nil
            return waiting
        }
        resume?.resume(returning: true)
    }

    /// No load started.
    func none() {
        let resume: CheckedContinuation<Bool, Never>? = lock.withLock {
            defer { waiting = nil }
            return waiting
        }
        resume?.resume(returning: false)
    }
}
