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
///     L <length>\n<line>                             a line for serve's terminal (a page error)
///
/// The ordinal frame comes before the page's first plugin call, so when the worker dies in one, the
/// server knows which file the crash record's page number means.
package struct WorkerRequest: Codable, Sendable {
    package enum Op: String, Codable, Sendable {
        case open, first, view, tap, page, retry, layout, resize, close, memory
    }
    package var request: Int
    package var op: Op
    package var session: String?
    package var file: String?
    package var width: Double?
    package var height: Double?
    package var offset: Double?
    package var version: Int?
    package var row: Int?
    package var x: Double?
    package var y: Double?
    package var page: Int?
    /// An open that carries a session over from an earlier worker: the events of scrolling back to where
    /// the tab is are not news to the tab (it was sent them by the worker before).
    package var replay: Bool?
    /// What the tab holds, with a view (HeldRows).
    package var held: HeldRows?
}

/// One frame from the worker.
package enum WorkerFrame: Sendable {
    package enum Kind: String, Sendable { case ok, none, fail }
    case answer(request: Int, kind: Kind, payload: [UInt8])
    case push(session: String, message: String)
    case ordinal(Int32, file: String)
    case log(String)
}
