import CHarfBuzz
import Glibc

/// One face of the font set, shaped with HarfBuzz. Advances are the font's own (font units, unhinted,
/// linearly scaled), which is what chromium uses with `text-rendering: geometricPrecision`, so a line's width
/// here and in the preview agree (docs/ABI.md, "Text layout").
///
/// The file is mapped read-only (`FontFile`) and HarfBuzz reads its tables where they lie: opened through
/// FreeType, every table HarfBuzz asked for (a CJK face's cmap, metrics and layout tables) was copied into
/// memory of its own, and each face kept FreeType's state besides, about 2 MB of every process that lays
/// text out (BENCHMARKS.md, "Peak memory of the json render"); the tables are the same bytes either way, and
/// so are the advances.
///
/// Immutable after init but for `handedBack` and `plain`; HarfBuzz fonts may shape from any thread, but the
/// engine calls it under its lock.
/// Lives for the process (the engine is a process-wide singleton).
final class FontFace: @unchecked Sendable {
    let file: FontSet.File
    /// The file's place in FontSet.files: what identifies the face in caches.
    let id: Int
    let font: OpaquePointer
    /// Font units per em: an advance of `u` units is `u * pointSize / unitsPerEm` points.
    let unitsPerEm: Double
    /// The mapped file (kept by HarfBuzz's blob as long as the font), and whether its pages were handed back
    /// after the face's first shape (`shaped()`).
    let mapped: UnsafeRawBufferPointer
    /// The file as it was mapped: what kept facts about it are checked against (FontFactsCache).
    let identity: FontFile.Identity
    private var handedBack = false
    /// Its plain characters (`PlainGlyphs`), found by the shaper the first time a piece not shaped before
    /// starts with a candidate, so that a face that draws no price never reads its tables for them.
    var plain: PlainGlyphs?

    init?(_ file: FontSet.File) {
        // nil for a file that cannot be read, or holds no face at `faceIndex` (HarfBuzz's empty face).
        guard let (blob, mapped, identity) = FontFile.map(file.path) else { return nil }
        defer { hb_blob_destroy(blob) }
        guard Int(hb_face_count(blob)) > file.faceIndex else { return nil }
        let hbFace = hb_face_create(blob, UInt32(file.faceIndex))
        defer { hb_face_destroy(hbFace) }
        guard hb_face_get_glyph_count(hbFace) > 0 else { return nil }
        self.file = file
        id = FontSet.files.firstIndex(of: file) ?? -1
        // HarfBuzz's own OpenType functions: unhinted advances in font units.
        font = hb_font_create(hbFace)
        let upem = Double(hb_face_get_upem(hb_font_get_face(font)))
        unitsPerEm = upem > 0 ? upem : 1000
        hb_font_set_scale(font, Int32(unitsPerEm), Int32(unitsPerEm))
        hb_font_make_immutable(font)
        self.mapped = mapped
        self.identity = identity
    }

    /// Called after each shape with this face. The first time, every page of the file this process has touched
    /// is handed back (MADV_DONTNEED). HarfBuzz checks each table it loads from end to end (its sanitizer) and
    /// indexes the layout tables on first use, so the first shape touches all of a CJK face's cmap, metrics,
    /// GSUB and GPOS, about 1 MB a face, of which later shapes read a fraction. The mapping is read-only and
    /// private: a page handed back is read again from the page cache, unchanged, when HarfBuzz next reads it,
    /// so this changes what the process keeps resident, never what it reads (BENCHMARKS.md, issue 23).
    /// Under the engine's lock, as every shape is.
    func shaped() {
        guard !handedBack else { return }
        handedBack = true
        handBack()
    }

    /// Hands every page of the file this process has touched back to the kernel (see `shaped`): also after
    /// `PlainGlyphs` has read the layout tables' coverage (about 150 KB of Noto Sans's GPOS), which it does
    /// not read again.
    func handBack() {
        guard let base = mapped.baseAddress else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base), mapped.count, MADV_DONTNEED)
    }

    deinit { hb_font_destroy(font) }

    /// Whether the face maps `scalar` to a glyph of its own.
    func has(_ scalar: UInt32) -> Bool {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font, scalar, &glyph) != 0 && glyph != 0
    }
}
