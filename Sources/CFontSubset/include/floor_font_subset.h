#ifndef FLOOR_FONT_SUBSET_H
#define FLOOR_FONT_SUBSET_H

#include <stddef.h>
#include <stdint.h>

/// A font holding only the glyphs of `codepoints` (and what HarfBuzz keeps with them: .notdef, the
/// glyphs their substitutions reach, their advances and layout tables), cut from face `index` of the
/// font file at `path`, as OpenType bytes in a malloc'd buffer of `*length` bytes (the caller frees it).
/// NULL when the file cannot be read or the face cannot be subset. Thread-safe: no state is kept.
unsigned char *floor_font_subset(const char *path, unsigned int index, const uint32_t *codepoints, size_t count,
                                 size_t *length);

#endif
