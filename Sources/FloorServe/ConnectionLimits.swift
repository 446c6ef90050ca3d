import NIOCore

/// What one `serve` holds open, at most, and for how long a client may take (README, "serve"):
/// - `maxConnections` (4,096): at the cap, a new connection closes the oldest one still sending its request
///   headers (a slow or idle client), never one being answered or holding a tab's event stream; when
///   there is none, the new connection is closed;
/// - `headerTimeout` (10 s): from a connection's opening, or the end of its last response, to the end of
///   its next request's headers; a connection idle that long between requests is closed too;
/// - `maxBodyBytes` (16 KB): no request of the preview has more (a view report is its offset and the rows
///   the tab holds, about 30 bytes a row: the script sends at most 12 KB, HeldRows); a larger
///   one is refused with 413 without reading it.
/// The descriptor soft limit is raised to the hard one at start (DescriptorLimit), so the cap is reached
/// before the process runs out of descriptors wherever the hard limit allows it.
public struct ConnectionLimits: Sendable {
    public var maxConnections = 4_096
    public var headerTimeout = TimeAmount.seconds(10)
    public var maxBodyBytes = 16 << 10

    public init() {}

    public static let standard = ConnectionLimits()
}
