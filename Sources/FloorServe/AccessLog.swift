import Foundation
import HostContract
import Hummingbird

/// `serve --access-log FILE`: one line per request as it is answered, outermost of the middleware so that
/// refusals are logged too: `2026-11-26T16:04:16Z GET /page/home.json 200 3.1 ms`. The path is the
/// request's, without its query, control characters shown as `\uXXXX`.
package struct AccessLog<Context: RequestContext>: RouterMiddleware {
    package let write: @Sendable (String) -> Void

    package init(_ write: @escaping @Sendable (String) -> Void) { self.write = write }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let started = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = ContinuousClock.now - started
        let ms = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
        let time = Date().ISO8601Format()
        write(
            "\(time) \(request.method.rawValue) \(ControlCharacters.escaped(request.uri.path)) "
                + "\(response.status.code) \(String(format: "%.1f", ms)) ms")
        return response
    }

    /// Where `--access-log` writes: `-` is stdout; a file is appended to (created when missing).
    package static func destination(_ path: String) throws(ServeFailure) -> @Sendable (String) -> Void {
        let handle: FileHandle
        if path == "-" {
            handle = .standardOutput
        } else {
            if !FileManager.default.fileExists(atPath: path) {
                guard FileManager.default.createFile(atPath: path, contents: nil) else {
                    throw ServeFailure("cannot create the access log \(path)")
                }
            }
            guard let opened = FileHandle(forWritingAtPath: path) else {
                throw ServeFailure("cannot open the access log \(path) for writing")
            }
            opened.seekToEndOfFile()
            handle = opened
        }
        let lock = NSLock()
        return { line in lock.withLock { handle.write(Data((line + "\n").utf8)) } }
    }
}
