import NIOCore
import NIOHTTP1

/// One connection's keeper, in its pipeline right after the HTTP/1 request decoder (GuardedHTTP1), where
/// requests are still HTTP/1 messages with their version (OpenConnections and ConnectionLimits hold the
/// numbers):
/// - counts the connection in, closing the oldest one still sending headers at the cap;
/// - closes a connection whose request headers do not arrive within the header timeout (counted from
///   its opening or from the end of its last response: an idle keep-alive connection too);
/// - answers a request whose Content-Length is over the body limit with 413 and closes, reading none of
///   the body; a chunked body that grows past it is cut off (the route answers 413) and the connection
///   closed after the answer;
/// - closes after the response a request that did not ask to keep the connection (HTTP/1.0 without
///   `Connection: keep-alive`, or `Connection: close`);
/// - closes a connection the client half-closed: an HTTP/1 client that stops sending is gone, and its
///   event stream must end now, not at the next ping (a half-closed socket would sit in CLOSE-WAIT), and
///   a request it cut off is not answered (errorCaught).
/// Threading: the channel's event loop, as every ChannelHandler.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let connections: OpenConnections
    private var counted = false
    /// The ticket while the connection waits for a request's headers.
    private var ticket: Int?
    private var timer: Scheduled<Void>?
    private var closeAfterResponse = false
    /// The rest of a refused request is dropped.
    private var discarding = false
    private var bodyBytes = 0

    init(_ connections: OpenConnections) { self.connections = connections }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !counted else { return }
        counted = true
        if let evicted = connections.opened(context.channel) {
            evicted.close(promise: nil)
            if evicted === context.channel { return }
        }
        awaitHeaders(context)
    }

    private func awaitHeaders(_ context: ChannelHandlerContext) {
        ticket = connections.awaitsHeaders(context.channel)
        let channel = context.channel
        let connections = self.connections
        timer?.cancel()
        timer = context.eventLoop.scheduleTask(in: connections.limits.headerTimeout) {
            connections.closedForTimeout()
            channel.close(promise: nil)
        }
    }

    private func headersArrived() {
        timer?.cancel()
        timer = nil
        if let ticket { connections.headersArrived(ticket) }
        ticket = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            headersArrived()
            bodyBytes = 0
            discarding = false
            closeAfterResponse = !head.isKeepAlive
            if let length = head.headers.first(name: "content-length").flatMap(Int.init),
                length > connections.limits.maxBodyBytes
            {
                discarding = true
                refuseTooLarge(context)
                return
            }
            context.fireChannelRead(data)
        case .body(let buffer):
            guard !discarding else { return }
            bodyBytes += buffer.readableBytes
            if bodyBytes > connections.limits.maxBodyBytes {
                // The route gets one byte too many and answers 413; the rest is never read.
                discarding = true
                closeAfterResponse = true
                connections.closedForBodySize()
                context.fireChannelRead(data)
                context.fireChannelRead(wrapInboundOut(.end(nil)))
                return
            }
            context.fireChannelRead(data)
        case .end:
            guard !discarding else { return }
            context.fireChannelRead(data)
        }
    }

    private func refuseTooLarge(_ context: ChannelHandlerContext) {
        connections.closedForBodySize()
        let body = #"{"error":"the request body is larger than \#(connections.limits.maxBodyBytes) bytes"}"# + "\n"
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "application/json; charset=utf-8")
        headers.add(name: "content-length", value: String(body.utf8.count))
        headers.add(name: "connection", value: "close")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .payloadTooLarge, headers: headers))),
            promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        if closeAfterResponse {
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.whenComplete { _ in context.close(promise: nil) }
            if let promise { written.futureResult.cascade(to: promise) }
            context.writeAndFlush(data, promise: written)
        } else {
            context.write(data, promise: promise)
            awaitHeaders(context)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// A request the client cut off by closing its side (a FIN after part of the request) makes the decoder
    /// report `invalidEOFState`. Passed on, Hummingbird answers it with a 400 while the connection closes,
    /// and that write never completes: each such connection's channel, buffers and task stayed in memory
    /// (about 2.4 KB each, BENCHMARKS.md, "Half-open connections"). No one is left to read an answer: the
    /// connection is closed here instead. Any other parse error goes on (a malformed request gets its 400).
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? HTTPParserError, error == .invalidEOFState {
            context.close(promise: nil)
            return
        }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        if counted { connections.closed(waiting: ticket) }
        counted = false
        ticket = nil
        context.fireChannelInactive()
    }
}
