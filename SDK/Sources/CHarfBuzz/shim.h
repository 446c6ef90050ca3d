/*
 * HarfBuzz (shaping) on the font files themselves, mapped read-only, for the text engine FloorText
 * (docs/ABI.md, "Text layout"). Debian: libharfbuzz-dev (Scripts/setup installs it).
 */
#include <hb.h>
#include <hb-ot.h>
