/*
 * HarfBuzz (shaping) on FreeType faces, for the text engine FloorText (docs/ABI.md, "Text layout").
 * Debian: libharfbuzz-dev, libfreetype-dev (Scripts/setup installs them).
 */
#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb.h>
#include <hb-ft.h>
#include <hb-ot.h>
