import Foundation

/// The protocol between `serve` and its worker process (`floorhost serve-worker`), over the worker's
/// stdin and stdout.
///
/// Server to worker: one request per line, a JSON WorkerRequest. The worker answers requests in order.
/// Worker to server: frames, each a header line and then `length` bytes of payload:
///
///     R <request> ok|none|fail <length>\n<payload>   the answer (none: unknown session; fail: a message)
///     P <length>\n<session> <message>                a push for a session's tabs ("changed", "reload", "ping")
///     O <ordinal> <length>\n<file>                   the worker numbered a page file (before decoding it)
///
/// The ordinal frame comes before the page's first plugin call, so when the worker dies in one, the
/// server knows which file the crash record's page number means.
struct WorkerRequest: Codable, Sendable {
    enum Op: String, Codable, Sendable { case open, first, view, tap, retry, layout }
    var request: Int
    var op: Op
    var session: String?
    var file: String?
    var width: Double?
    var offset: Double?
    var version: Int?
    var row: Int?
    var x: Double?
}

/// One frame from the worker.
enum WorkerFrame: Sendable {
    enum Kind: String, Sendable { case ok, none, fail }
    case answer(request: Int, kind: Kind, payload: [UInt8])
    case push(session: String, message: String)
    case ordinal(Int32, file: String)
}
