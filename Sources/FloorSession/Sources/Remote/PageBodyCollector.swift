import AsyncHTTPClient
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// Collects one HTTP answer for RemotePageClient: the head, and the body up to `maxBytes` for a 2xx (one
/// byte more fails the request at once, so a huge or endless body costs no more than the limit) or up to
/// 64 KiB of anything else (an error page, a redirect's body: read so the connection can be kept, then
/// dropped). `progress` is what arrived so far, which tells a server that stalled mid-body from one that
/// never answered. Threading: AsyncHTTPClient calls it on one event loop; `progress` may be read from any
/// thread (under a lock).
package final class PageBodyCollector: HTTPClientResponseDelegate, Sendable {
    package struct Answer: Sendable {
        package let head: HTTPResponseHead
        package let body: [UInt8]
    }

    package struct TooLarge: Error {}

    private struct State {
        var head: HTTPResponseHead?
        var body: [UInt8] = []
        var expected: Int?
    }

    private let maxBytes: Int
    private let state = NIOLockedValueBox(State())

    package init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    /// Nil before the answer's head arrived; then the body's bytes so far and the length announced.
    package var progress: (count: Int, expected: Int?)? {
        state.withLockedValue { state in state.head.map { _ in (state.body.count, state.expected) } }
    }

    package func didReceiveHead(task: HTTPClient.Task<Answer>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let expected = head.headers.first(name: "Content-Length").flatMap { Int($0) }
        state.withLockedValue {
            $0.head = head
            $0.expected = expected
        }
        if (200..<300).contains(head.status.code), let expected, expected > maxBytes {
            return task.eventLoop.makeFailedFuture(TooLarge())
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    package func didReceiveBodyPart(task: HTTPClient.Task<Answer>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let fits: Bool = state.withLockedValue { state in
            let ok = (200..<300).contains(state.head?.status.code ?? 0)
            let limit = ok ? maxBytes : 64 << 10
            guard state.body.count + buffer.readableBytes <= limit else { return !ok }
            state.body += buffer.readableBytesView
            return true
        }
        return fits ? task.eventLoop.makeSucceededVoidFuture() : task.eventLoop.makeFailedFuture(TooLarge())
    }

    package func didFinishRequest(task: HTTPClient.Task<Answer>) throws -> Answer {
        try state.withLockedValue { state in
            guard let head = state.head else { throw HTTPClientError.remoteConnectionClosed }
            return Answer(head: head, body: state.body)
        }
    }
}
