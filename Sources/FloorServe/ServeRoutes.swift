import FloorSession
import Foundation
import Hummingbird
import ServiceLifecycle

/// The HTTP face of a Preview:
///
///     GET  /                          the pages under the root (next pages marked)
///     GET  /page/<path>[?width=W]     the page in a phone frame (W: 320, 375 or 414), a new session
///     GET  /layout/<path>             what `floorhost <path> --format json` prints for the file as it is now
///     POST /api/sessions/<id>/view    {"offset":Y,"version":V} -> ViewUpdate
///     POST /api/sessions/<id>/tap     {"row":R,"x":X,"y":Y} -> the action, as `--tap` prints it
///     POST /api/sessions/<id>/page    {"row":R,"page":P} -> {"row":R,"page":P,"pages":N}: a carousel turned
///     POST /api/sessions/<id>/retry   start a failed load again
///     GET  /api/sessions/<id>/events  server-sent events: "changed", "reload"
///
/// A path that is not a page under the root, whatever the reason, is 404 `{"error":"no such page"}`; any
/// other refused request is a 4xx with one line of JSON.
public enum ServeRoutes {
    public static func router(_ preview: some PreviewService) -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: JSONErrors())
        router.get("/") { _, _ in
            html(PreviewPages.index(preview.index(), rootArgument: preview.rootArgument))
        }
        router.get("/page/**") { request, _ in
            let (file, path) = try await page(request, prefix: "/page/", preview)
            guard let phone = PhoneSize.named(request.uri.queryParameters["width"]) else {
                throw APIError(status: .badRequest, message: "width must be one of 320, 375, 414")
            }
            // The page is a shell (frame, title, panels, script) that needs no plugin; the tab's first view
            // report lays the page out. A page that does not decode shows why, and recovers when fixed.
            let id = await preview.open(file, phone: phone)
            switch preview.title(of: file) {
            case .failure(let error):
                return html(
                    PreviewPages.error(error.description, file: path, session: id), status: .unprocessableContent)
            case .success(let title):
                return html(PreviewPages.page(session: id, path: path, phone: phone, title: title))
            }
        }
        router.get("/layout/**") { request, _ in
            let (file, _) = try await page(request, prefix: "/layout/", preview)
            switch await preview.layoutJSON(file) {
            case .success(let bytes): return json(bytes)
            case .failure(let failure): throw APIError(status: .unprocessableContent, message: failure.message)
            }
        }
        router.post("/api/sessions/:id/view") { request, context in
            let report = try await body(ViewReport.self, request, context, expected: #"{"offset":Y,"version":V}"#)
            guard
                let bytes = await preview.view(
                    try context.parameters.require("id"), offset: report.offset, knownVersion: report.version)
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
        router.post("/api/sessions/:id/retry") { _, context in
            guard await preview.retry(try context.parameters.require("id")) else { throw APIError.noSuchSession }
            return json(Array(#"{"retried":true}"#.utf8) + [10])
        }
        router.get("/api/sessions/:id/events") { _, context in
            guard let stream = await preview.subscribe(try context.parameters.require("id")) else {
                throw APIError.noSuchSession
            }
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
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
        return router
    }

    /// The page file a `/page/...` or `/layout/...` request names, and its path relative to the root.
    private static func page(_ request: Request, prefix: String, _ preview: some PreviewService) async throws -> (
        file: String, path: String
    ) {
        let raw = request.uri.path
        guard raw.hasPrefix(prefix), let path = RequestedPage.relativePath(raw.dropFirst(prefix.count)) else {
            throw APIError.noSuchPage
        }
        let file = RequestedPage.join(preview.rootArgument, path)
        guard preview.exists(file) else { throw APIError.noSuchPage }
        return (file, path)
    }

    private static func body<T: Decodable>(
        _ type: T.Type, _ request: Request, _ context: BasicRequestContext, expected: String
    ) async throws -> T {
        var request = request
        guard let buffer = try? await request.collectBody(upTo: 16 << 10),
            let value = try? JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        else {
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
    package typealias Context = BasicRequestContext
    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return error.response
        } catch let error as HTTPResponseError {
            let status = error.status
            return APIError(
                status: status, message: status == .notFound ? "no such page" : status.reasonPhrase.lowercased()
            ).response
        }
    }
}
