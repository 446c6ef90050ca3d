import FloorCore
import FloorRuntime
import Foundation
import Hummingbird

/// `GET /image/<path>`: an image file under the page root, for the pictures pages name (ImageLinks). Read
/// by the page root's rules (resolved after symlinks, inside the root, a regular file, at most
/// `--max-page-bytes`), and only files named as an image type (by extension). Served so that none can
/// run script, an SVG opened on its own included: a sandboxing Content-Security-Policy (no script, no
/// fetch, no plugin; inline style only), `nosniff` so the type is the extension's. Anything refused is the
/// same 404 `{"error":"no such image"}`, which quotes nothing.
package enum ServedImage {
    package static let policy = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

    /// The content type an image file's name says, or nil when it names no image type served here.
    package static func contentType(of name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), !name[dot...].contains("/") else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "avif": return "image/avif"
        case "svg": return "image/svg+xml"
        default: return nil
        }
    }

    /// `file`'s path relative to the root after symlinks, or nil when it does not resolve inside it.
    package static func relativePath(of file: String, root: PageRoot) -> String? {
        guard let resolved = PageRoot.realPath(WorkingDirectory.absolute(file)), root.contains(resolved) else {
            return nil
        }
        return String(resolved.dropFirst(root.folder == "/" ? 1 : root.folder.count + 1))
    }

    /// Whether `file` is a regular file within the size bound (a stat, no read): what a row's drawing
    /// asks before it names the file's address. The request reads it by the root's full rules.
    package static func servable(_ file: String, root: PageRoot) -> Bool {
        var info = stat()
        return stat(file, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && Int(info.st_size) <= root.maxPageBytes
    }

    /// The response to `/image/<encoded>`.
    package static func response(_ encoded: Substring, root: PageRoot, rootArgument: String) -> Response {
        guard let relative = RequestedPage.relativePath(encoded), let type = contentType(of: relative),
            let bytes = try? root.read(RequestedPage.join(rootArgument, relative))
        else { return APIError(status: .notFound, message: "no such image").response }
        return Response(
            status: .ok,
            headers: [
                .contentType: type, .contentSecurityPolicy: policy, .init("X-Content-Type-Options")!: "nosniff",
                .cacheControl: "no-cache",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
