import CFontSubset
import FloorRender
import FloorRuntime
import FloorText
import Glibc

/// A preview page's CJK faces cut down to the characters its file holds (PageCharacters). Without them a
/// tab fetched and decoded the two 20 MB CJK collections on every navigation: about 110 ms of the first
/// rows' paint (BENCHMARKS.md, "First rows painted"). HarfBuzz's subsetter keeps each glyph's outline,
/// advance and layout rules, so the lines draw exactly as the host measured them.
///
/// A page's characters are named by a key (their hash): `faces(for:)` remembers them and gives the page's
/// CSS faces (HTMLRenderer.fontFaces); `/fonts/page/<key>/<file>.otf` cuts that face on its first request.
/// At most `capacity` pages' characters and cut faces are kept, the least recently used going first; a key
/// no longer known answers 404, and the browser loads the face's next source, the whole file.
actor FontSubsets {
    /// Pages whose characters and cut faces are kept: about 100 KB to 1 MB a page.
    static let capacity = 32
    /// The faces cut: the CJK regular and bold (the others are small enough to serve whole).
    static let roles: [FontSet.File.Role] = [.cjk, .cjkBold]

    private var characters: [String: [UInt32]] = [:]
    private var faces: [String: [UInt8]] = [:]  // "<key>/<file>" -> the cut face
    private var recent: [String] = []  // keys, least recently used first

    /// The CSS faces of a page whose file holds `bytes`: the whole set, and its cut CJK faces when the page
    /// has characters past ASCII and not more than PageCharacters.limit of them.
    func css(forPage bytes: [UInt8]) -> String {
        guard let found = PageCharacters.of(bytes), !found.isEmpty else { return FontRoute.fontFaces }
        var hash = ContentHash()
        for character in found { hash.add(UInt64(character)) }
        let key = String(hash.value, radix: 16)
        if characters[key] == nil { characters[key] = found }
        use(key)
        return HTMLRenderer.fontFaces(route: "/fonts/", subset: (folder: "page/" + key, ranges: Self.ranges(found)))
    }

    /// The face `file` (a file name of FontSet, one of `roles`) cut to the characters of `key`, or nil.
    func face(key: String, file: String) -> [UInt8]? {
        guard let found = characters[key],
            let entry = FontSet.files.first(where: { $0.fileName == file && Self.roles.contains($0.role) })
        else { return nil }
        use(key)
        if let known = faces[key + "/" + file] { return known }
        var length = 0
        guard
            let cut = found.withUnsafeBufferPointer({
                floor_font_subset(entry.path, UInt32(entry.faceIndex), $0.baseAddress, $0.count, &length)
            })
        else { return nil }
        defer { free(cut) }
        let bytes = Array(UnsafeBufferPointer(start: cut, count: length))
        faces[key + "/" + file] = bytes
        return bytes
    }

    private func use(_ key: String) {
        recent.removeAll { $0 == key }
        recent.append(key)
        while recent.count > Self.capacity {
            let gone = recent.removeFirst()
            characters[gone] = nil
            for role in Self.roles { faces[gone + "/" + FontSet.file(role).fileName] = nil }
        }
    }

    /// `U+4E00-4E05,U+54C1`: sorted code points as CSS unicode-range, runs joined.
    static func ranges(_ sorted: [UInt32]) -> String {
        var parts: [String] = []
        var i = 0
        while i < sorted.count {
            var j = i
            while j + 1 < sorted.count, sorted[j + 1] == sorted[j] + 1 { j += 1 }
            let first = String(sorted[i], radix: 16, uppercase: true)
            parts.append(i == j ? "U+" + first : "U+\(first)-" + String(sorted[j], radix: 16, uppercase: true))
            i = j + 1
        }
        return parts.joined(separator: ",")
    }
}
