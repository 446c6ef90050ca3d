import FloorRender
import FloorText
import Foundation
import Hummingbird

/// `GET /fonts/<file>`: the font files the host measures text with (FontSet, pinned by Fonts.lock), so the
/// preview draws each line with exactly the faces it was measured in (docs/ABI.md, "Text layout"). Only
/// the set's own files, by their file names: any other name is 404, and no path reaches the file system.
/// A file is read once and kept for the process (about 50 MB for the set, read on a tab's first text).
enum FontRoute {
    /// The files served, by name, and their media types.
    static let files: [String: (path: String, type: String)] = Dictionary(
        uniqueKeysWithValues: FontSet.files.map {
            ($0.fileName, ($0.path, $0.path.hasSuffix(".ttc") ? "font/collection" : "font/ttf"))
        })

    private static let cache = FontCache()

    /// The CSS faces of the set from this route: a preview page's text blocks draw with the served files,
    /// where a `--format html` file uses the installed ones (HTMLRenderer.fontFaces).
    static let fontFaces = HTMLRenderer.fontFaces(route: "/fonts/")

    /// Each page's CJK faces cut to its characters (`/fonts/page/<key>/<file>.otf`).
    static let subsets = FontSubsets()

    static func add(to router: Router<ServeContext>) {
        router.get("/fonts/:file") { _, context in
            guard let name = context.parameters.get("file"), let file = files[name],
                let bytes = await cache.bytes(of: file.path)
            else {
                throw APIError(status: .notFound, message: "no such font")
            }
            return Response(
                status: .ok,
                headers: [.contentType: file.type, .cacheControl: "max-age=86400", .accessControlAllowOrigin: "*"],
                body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        router.get("/fonts/page/:key/:file") { _, context in
            guard let key = context.parameters.get("key"), let name = context.parameters.get("file"),
                name.hasSuffix(".otf"), let bytes = await subsets.face(key: key, file: String(name.dropLast(4)))
            else {
                throw APIError(status: .notFound, message: "no such font")
            }
            // A key names its characters and the font set is pinned: the same address is the same bytes.
            return Response(
                status: .ok,
                headers: [
                    .contentType: "font/otf", .cacheControl: "public, max-age=31536000, immutable",
                    .accessControlAllowOrigin: "*",
                ],
                body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
    }
}

/// The served font files' bytes, read on first request.
private actor FontCache {
    private var loaded: [String: [UInt8]] = [:]

    func bytes(of path: String) -> [UInt8]? {
        if let known = loaded[path] { return known }
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = [UInt8](data)
        loaded[path] = bytes
        return bytes
    }
}
