import CHarfBuzz

/// One face of the font set, opened with FreeType and shaped with HarfBuzz. Advances are the font's own
/// (font units, unhinted, linearly scaled), which is what chromium uses with `text-rendering:
/// geometricPrecision`, so a line's width here and in the preview agree (docs/ABI.md, "Text layout").
///
/// Immutable after init; HarfBuzz fonts may shape from any thread, but the engine calls it under its lock.
/// Lives for the process (the engine is a process-wide singleton).
final class FontFace: @unchecked Sendable {
    let file: FontSet.File
    /// The file's place in FontSet.files: what identifies the face in caches.
    let id: Int
    private let face: FT_Face
    let font: OpaquePointer
    /// Font units per em: an advance of `u` units is `u * pointSize / unitsPerEm` points.
    let unitsPerEm: Double

    init?(_ file: FontSet.File, library: FT_Library) {
        var face: FT_Face?
        guard FT_New_Face(library, file.path, FT_Long(file.faceIndex), &face) == 0, let face else { return nil }
        self.file = file
        id = FontSet.files.firstIndex(of: file) ?? -1
        self.face = face
        let hbFace = hb_ft_face_create_referenced(face)
        // HarfBuzz's own OpenType functions on the FreeType face: unhinted advances in font units.
        font = hb_font_create(hbFace)
        hb_face_destroy(hbFace)
        let upem = Double(hb_face_get_upem(hb_font_get_face(font)))
        unitsPerEm = upem > 0 ? upem : 1000
        hb_font_set_scale(font, Int32(unitsPerEm), Int32(unitsPerEm))
        hb_font_make_immutable(font)
    }

    deinit {
        hb_font_destroy(font)
        FT_Done_Face(face)
    }

    /// Whether the face maps `scalar` to a glyph of its own.
    func has(_ scalar: UInt32) -> Bool {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font, scalar, &glyph) != 0 && glyph != 0
    }
}
