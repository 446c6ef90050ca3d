import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 channel with a ConnectionGuard after the request decoder: the server `serve` runs
/// (PreviewServer). Hummingbird offers an idle timeout and a connection count that stops accepting; the
/// preview needs a header timeout and a cap that closes the oldest slow client instead, which need the
/// HTTP/1 messages before Hummingbird's own codec turns them into HTTPTypes (and drops their version).
package struct GuardedHTTP1: ServerChildChannel {
    package let inner: HTTP1Channel
    package let connections: OpenConnections

    package func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(ConnectionGuard(connections), position: .after(decoder))
            return value
        }
    }

    package func handle(value: HTTP1Channel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with `connections`' limits.
    package static func guardedHTTP1(_ connections: OpenConnections) -> HTTPServerBuilder {
        .init { responder in GuardedHTTP1(inner: HTTP1Channel(responder: responder), connections: connections) }
    }
}
