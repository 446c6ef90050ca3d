import Hummingbird
import NIOCore

/// What a route of `serve` knows of its request beyond the request: Hummingbird's core context, and the
/// connection it came on, whose closing ends a tab's event stream at once (not at its next ping).
public struct ServeContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The connection; closed when the client goes (ConnectionGuard closes a half-closed one).
    package let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
