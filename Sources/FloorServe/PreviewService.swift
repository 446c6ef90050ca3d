import FloorRuntime
import FloorSession

/// What the routes need of a preview: the in-process Preview (plugins loaded in the server; tests and
/// `--no-plugin-isolation`), or WorkerPreview (plugins and sessions in a replaceable worker process).
/// Methods that name a session return nil when it is unknown.
public protocol PreviewService: Sendable {
    /// The root folder as `serve` was given it.
    var rootArgument: String { get }
    var root: PageRoot { get }
    /// What `floorhost <file> --format json` prints for the file as it is now, or why not.
    func layoutJSON(_ file: String) async -> Result<[UInt8], ServeFailure>
    /// A new session (one tab) on `file`. It may be laid out only when it is first asked for something.
    func open(_ file: String, phone: PhoneSize, offset: Double) async -> String
    func firstScreen(_ id: String) async -> FirstScreen?
    /// ViewUpdate's JSON for the tab's report: its offset, its layout version, the rows it holds (HeldRows).
    func view(_ id: String, offset: Double, knownVersion: Int, held: HeldRows) async -> [UInt8]?
    /// The action of a click at (`x`, `y`) points in row `row`, as `--tap` prints it, or why there is none.
    func tap(_ id: String, row: Int, x: Double, y: Double) async -> Result<[UInt8], ServeFailure>?
    /// Shows page `page` of paged row `row` (a carousel): `{"row":R,"page":P,"pages":N}`, the page shown.
    func showPage(_ id: String, row: Int, page: Int) async -> Result<[UInt8], ServeFailure>?
    func retry(_ id: String) async -> Bool
    /// The tab switched devices: ViewUpdate's JSON for the session laid out for `phone` (its pages,
    /// events and the content at `offset` kept on screen). Nil for an unknown session.
    func resize(_ id: String, phone: PhoneSize, offset: Double) async -> [UInt8]?
    /// Push messages for a tab: "changed", "reload" (and "ping", which keeps the stream honest).
    func subscribe(_ id: String) async -> AsyncStream<String>?
    /// Ends every push stream (the server is stopping).
    func endPushes()
    /// Sessions kept, workers restarted, the worker's memory: what `/metrics` reads (ServeMetrics).
    func health() async -> PreviewHealth
}

/// What needs no plugin: the page files themselves.
extension PreviewService {
    public func index() -> [PageIndex.Entry] { PageIndex.list(root) }
}

/// Why a request about a page or a tap has no answer: a message a person can act on.
public struct ServeFailure: Error, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}

/// The first screen of a session's page: its row elements (the page is served with them, so it shows
/// before the script runs), the page height and title; or the page's error (file:line:column: reason).
public struct FirstScreen: Codable, Sendable, Equatable {
    public var rows: String
    public var height: Double
    public var title: String?
    public var error: String?
}
