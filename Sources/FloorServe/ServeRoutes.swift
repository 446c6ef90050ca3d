import FloorSession
import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle

/// The HTTP face of a Preview:
///
///     GET  /                          the pages under the root (next pages marked)
///     GET  /page/<path>[?device=D&width=W&height=H&y=Y]   the page in a phone frame (a DevicePreset,
///                                     or any width 280-1,024 and height 320-1,366), scrolled to Y; a new session
///     GET  /layout/<path>             what `floorhost <path> --format json` prints for the file as it is now
///     GET  /image/<path>              an image file under the root (ServedImage: no script can run in it)
///     GET  /serve.js?v=H              the client script (ClientScript), kept by the browser
///     GET  /healthz                   {"ok":true}: the server is up and answering
///     GET  /metrics                   Prometheus' text format (ServeMetrics)
///     POST /api/sessions/<id>/view    {"offset":Y,"version":V} -> ViewUpdate
///     POST /api/sessions/<id>/tap     {"row":R,"x":X,"y":Y} -> the action, as `--tap` prints it
///     POST /api/sessions/<id>/page    {"row":R,"page":P} -> {"row":R,"page":P,"pages":N}: a carousel turned
///     POST /api/sessions/<id>/retry   start a failed load again
///     POST /api/sessions/<id>/resize  {"width":W,"height":H,"offset":Y} -> ViewUpdate at the new size
///     GET  /api/sessions/<id>/events  server-sent events: "changed", "reload"
///     GET  /fonts/<file>              a font file of the set text is measured with (FontRoute)
///     GET  /fonts/page/<key>/<file>.otf  a CJK face cut to a page's characters (FontSubsets)
///
/// A path that is not a page under the root, whatever the reason, is 404 `{"error":"no such page"}`; any
/// other refused request is a 4xx with one line of JSON. Requests another web site could have made are
/// refused before any route (ForeignRequests): only `hosts` are answered.
public enum ServeRoutes {
    public static func router(
        _ preview: some PreviewService, hosts: ServedHosts = .loopback,
        accessLog: (@Sendable (String) -> Void)? = nil, metrics: ServeMetrics = ServeMetrics()
    ) -> Router<ServeContext> {
        let router = Router(context: ServeContext.self)
        if let accessLog { router.add(middleware: AccessLog(accessLog)) }
        router.add(middleware: RouteMetrics(metrics: metrics))
        router.add(middleware: JSONErrors())
        router.add(middleware: ForeignRequests(hosts))
        router.get("/") { _, _ in
            html(PreviewPages.index(preview.index(), rootArgument: preview.rootArgument))
        }
        router.get("/page/**") { request, _ in
            let (file, path, bytes) = try await page(request, prefix: "/page/", preview)
            let query = request.uri.queryParameters
            let phone: PhoneSize
            switch PhoneSize.requested(device: query["device"], width: query["width"], height: query["height"]) {
            case .success(let size): phone = size
            case .failure(let refused):
                return html(PreviewPages.sizeRefused(refused.message, path: path), status: .badRequest)
            }
            let y = query["y"].flatMap { Double($0) }.flatMap { $0.isFinite && $0 > 0 ? min($0, 1e9) : nil } ?? 0
            // The page is a shell (frame, title, panels, script) that needs no plugin; the tab's first view
            // report lays the page out. A page that does not decode shows why, and recovers when fixed.
            let id = await preview.open(file, phone: phone, offset: y)
            switch PageIndex.title(of: file, bytes: bytes) {
            case .failure(let error):
                let message = RootRelativePaths(root: preview.rootArgument)(error.description)
                return html(
                    PreviewPages.page(session: id, path: path, phone: phone, title: nil, error: message),
                    status: .unprocessableContent)
            case .success(let title):
                let faces = await FontRoute.subsets.css(forPage: bytes)
                return html(PreviewPages.page(session: id, path: path, phone: phone, title: title, faces: faces))
            }
        }
        // For whoever runs it (a supervisor, a proxy's health check): up and answering.
        router.get("/healthz") { _, _ in json(Array(#"{"ok":true}"#.utf8) + [10]) }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition(await preview.health()))))
        }
        router.get("/serve.js") { _, _ in
            Response(
                status: .ok,
                headers: [
                    .contentType: "text/javascript; charset=utf-8",
                    .cacheControl: "public, max-age=31536000, immutable",
                ],
                body: .init(byteBuffer: ByteBuffer(string: ClientScript.source)))
        }
        router.get("/image/**") { request, _ in
            let raw = request.uri.path
            guard raw.hasPrefix("/image/") else { throw APIError(status: .notFound, message: "no such image") }
            return ServedImage.response(
                raw.dropFirst("/image/".count), root: preview.root, rootArgument: preview.rootArgument)
        }
        router.get("/layout/**") { request, _ in
            let (file, _, _) = try await page(request, prefix: "/layout/", preview)
            switch await preview.layoutJSON(file) {
            case .success(let bytes): return json(bytes)
            case .failure(let failure): throw APIError(status: .unprocessableContent, message: failure.message)
            }
        }
        router.post("/api/sessions/:id/view") { request, context in
            let report = try await body(ViewReport.self, request, context, expected: #"{"offset":Y,"version":V}"#)
            guard
                let bytes = await preview.view(
                    try context.parameters.require("id"), offset: report.offset, knownVersion: report.version,
                    held: HeldRows(report.held ?? [:], pinned: report.pinned))
            else {
                throw APIError.noSuchSession
            }
            return json(bytes)
        }
        router.post("/api/sessions/:id/tap") { request, context in
            let tap = try await body(TapReport.self, request, context, expected: #"{"row":R,"x":X,"y":Y}"#)
            guard
                let result = await preview.tap(
                    try context.parameters.require("id"), row: tap.row, x: tap.x, y: tap.y ?? .nan)
            else {
                throw APIError.noSuchSession
            }
            switch result {
            case .success(let action): return json(action)
            case .failure(let failure): throw APIError(status: .unprocessableContent, message: failure.message)
            }
        }
        router.post("/api/sessions/:id/page") { request, context in
            let turn = try await body(PageTurn.self, request, context, expected: #"{"row":R,"page":P}"#)
            guard
                let result = await preview.showPage(
                    try context.parameters.require("id"), row: turn.row, page: turn.page)
            else {
                throw APIError.noSuchSession
            }
            switch result {
            case .success(let shown): return json(shown)
            case .failure(let failure): throw APIError(status: .unprocessableContent, message: failure.message)
            }
        }
        router.post("/api/sessions/:id/resize") { request, context in
            let asked = try await body(
                ResizeReport.self, request, context, expected: #"{"width":W,"height":H,"offset":Y}"#)
            guard PhoneSize.widths.contains(asked.width), PhoneSize.heights.contains(asked.height) else {
                throw APIError(
                    status: .badRequest,
                    message: "the width must be 280 to 1,024 points and the height 320 to 1,366")
            }
            let phone = PhoneSize(width: asked.width.rounded(), height: asked.height.rounded())
            guard
                let bytes = await preview.resize(
                    try context.parameters.require("id"), phone: phone, offset: asked.offset)
            else { throw APIError.noSuchSession }
            return json(bytes)
        }
        router.post("/api/sessions/:id/retry") { _, context in
            guard await preview.retry(try context.parameters.require("id")) else { throw APIError.noSuchSession }
            return json(Array(#"{"retried":true}"#.utf8) + [10])
        }
        router.get("/api/sessions/:id/events") { _, context in
            guard let pushes = await preview.subscribe(try context.parameters.require("id")) else {
                throw APIError.noSuchSession
            }
            // The tab's pushes until it goes: the connection's closing ends the stream at once (and with it
            // the session's subscription), not at the next ping's failed write.
            let (stream, continuation) = AsyncStream<String>.makeStream()
            let relay = Task {
                for await message in pushes { continuation.yield(message) }
                continuation.finish()
            }
            context.channel.closeFuture.whenComplete { _ in
                relay.cancel()
                continuation.finish()
            }
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    metrics.stream(+1)
                    defer {
                        relay.cancel()
                        metrics.stream(-1)
                    }
                    try await writer.write(ByteBuffer(string: ": connected\n\n"))
                    // The server stops only when every response has ended: a stopping server
                    // ends the push streams (the tabs reconnect to the next server).
                    try await withGracefulShutdownHandler {
                        for await message in stream {
                            try await writer.write(
                                ByteBuffer(string: message == "ping" ? ": ping\n\n" : "data: \(message)\n\n"))
                        }
                    } onGracefulShutdown: {
                        preview.endPushes()
                    }
                    try await writer.finish(nil)
                })
        }
        FontRoute.add(to: router)
        return router
    }

    /// The page file a `/page/...` or `/layout/...` request names, its path relative to the root, and its
    /// bytes, read once: whatever keeps them from being read through the root is the one 404.
    private static func page(_ request: Request, prefix: String, _ preview: some PreviewService) async throws -> (
        file: String, path: String, bytes: [UInt8]
    ) {
        let raw = request.uri.path
        guard raw.hasPrefix(prefix), let path = RequestedPage.relativePath(raw.dropFirst(prefix.count)) else {
            throw APIError.noSuchPage
        }
        let file = RequestedPage.join(preview.rootArgument, path)
        guard let bytes = try? preview.root.read(file) else { throw APIError.noSuchPage }
        return (file, path, bytes)
    }

    private static func body<T: Decodable>(
        _ type: T.Type, _ request: Request, _ context: ServeContext, expected: String
    ) async throws -> T {
        var request = request
        let limit = ConnectionLimits.standard.maxBodyBytes
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw APIError(status: .contentTooLarge, message: "the request body is larger than \(limit) bytes")
        } catch {
            throw APIError(status: .badRequest, message: "the body must be JSON \(expected)")
        }
        guard let value = try? JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView)) else {
            throw APIError(status: .badRequest, message: "the body must be JSON \(expected)")
        }
        return value
    }

    package static func html(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    package static func json(_ bytes: [UInt8]) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// A tab's view report and click, as the client script posts them.
package struct ViewReport: Decodable {
    package let offset: Double
    package let version: Int
    /// The rows the tab holds, index to tag, and the pinned row it shows (HeldRows); absent from older tabs.
    package let held: [Int: String]?
    package let pinned: HeldRows.Pinned?
}
package struct ResizeReport: Decodable {
    package let width: Double
    package let height: Double
    package let offset: Double
}
package struct TapReport: Decodable {
    package let row: Int
    package let x: Double
    /// Points from the row's top; a client that sends none taps by `x` alone (1.4's rule).
    package let y: Double?
}

/// A tab turned a carousel: the row (page-wide index) and the page it wants shown, 0-based.
package struct PageTurn: Decodable {
    package let row: Int
    package let page: Int
}

/// Every refusal as one line of JSON: APIError's own, and the router's (no such route, wrong method).
package struct JSONErrors: RouterMiddleware {
    package typealias Context = ServeContext
    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return error.response
        } catch let error as HTTPResponseError {
            let status = error.status
            let missing = request.uri.path.hasPrefix("/image/") ? "no such image" : "no such page"
            return APIError(status: status, message: status == .notFound ? missing : status.reasonPhrase.lowercased())
                .response
        }
    }
}
