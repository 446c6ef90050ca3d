/*
 * floor_abi/canvas.h: the canvas a cell draws into, its text styles and its fill tones. Each output backend
 * (text, JSON, HTML) implements one, so a plugin draws once for every output (docs/ABI.md, "Canvas").
 * Part of floor_abi.h, which a plugin includes (its top comment explains the [tags]).
 */
#ifndef FLOOR_ABI_CANVAS_H
#define FLOOR_ABI_CANVAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Text styles, a bit set, for floor_canvas_t.text. A backend may ignore any of them (docs/ABI.md, "Text styles"). */
#define FLOOR_TEXT_BOLD   0x1u
#define FLOOR_TEXT_MUTED  0x2u
#define FLOOR_TEXT_ACCENT 0x4u  /* prices, highlights */
#define FLOOR_TEXT_CENTER 0x8u  /* center within max_width instead of starting at x */
/* Since 1.4, shown by every 1.4 backend, ignored by a 1.3 host (the SDK's `Canvas.supportsStrike` tells): */
#define FLOOR_TEXT_STRIKE 0x10u /* a line through the text (an old price) */

/*
 * Since 1.5. A text style in bits 8-11 of the style word, beside the bits above (docs/ABI-1.5.md, part 1).
 * FLOOR_TEXT_CELL (0) is 1.4's cell metrics; the others are real type, measured by the host with its font set.
 */
#define FLOOR_TEXT_STYLE_MASK 0xF00u
#define FLOOR_TEXT_CELL       0x000u /* 5 points a character, a 12-point line */
#define FLOOR_TEXT_CAPTION    0x100u /* 12 pt on a 16-point line */
#define FLOOR_TEXT_FOOTNOTE   0x200u /* 13 pt on an 18-point line */
#define FLOOR_TEXT_BODY       0x300u /* 15 pt on a 20-point line; an unknown style number is BODY */
#define FLOOR_TEXT_HEADLINE   0x400u /* 17 pt semibold on a 22-point line */
#define FLOOR_TEXT_TITLE      0x500u /* 20 pt bold on a 25-point line */

/* Since 1.5. How floor_canvas_t.fitted_image places a picture in its frame. */
#define FLOOR_IMAGE_FILL 0u /* cover the frame, cropping what is outside (1.4's image) */
#define FLOOR_IMAGE_FIT  1u /* all of the picture inside the frame */

/* Since 1.5. What layout_text answers about a block of text (docs/ABI-1.5.md, part 1). */
typedef struct floor_text_layout {
    /* [data][during the call][plugin-owned] sizeof(floor_text_layout_t) as the plugin compiled it; the host
       writes only the fields it covers */
    uint32_t struct_size;
    /* [data][during the call][plugin-owned] written by the host: lines the text takes (0 for empty text) */
    uint32_t lines;
    /* [data][during the call][plugin-owned] written by the host: the widest line, in points */
    double width;
    /* [data][during the call][plugin-owned] written by the host: lines x the style's line height, in points */
    double height;
    /* [data][during the call][plugin-owned] written by the host: max_lines cut the text (it ends in an ellipsis) */
    bool truncated;
} floor_text_layout_t;

/* Since 1.4. The tones of floor_canvas_t.fill; a backend shows an unknown tone as FLOOR_TONE_SUBTLE. */
#define FLOOR_TONE_SUBTLE 0u  /* a light background behind a card or a group (text: light shade) */
#define FLOOR_TONE_MUTED  1u  /* grey: a placeholder, a disabled area (text: medium shade) */
#define FLOOR_TONE_ACCENT 2u  /* the price colour: a badge, a sale tag (text: dark shade, red when styled) */

/*
 * Points from the cell's top-left corner; drawing outside width x height is clipped and fails conformance.
 * A text line is 12 points tall with y its top, 5 points a character (docs/ABI.md, "Canvas", "Text metrics",
 * "Measuring"). Strings are UTF-8, copied before each call returns.
 */
typedef struct floor_canvas floor_canvas_t;
struct floor_canvas {
    /* [data][during cell][host-owned] sizeof the host's canvas: fields past it are absent (docs/ABI.md, "Versions") */
    uint32_t struct_size;
    /* [data][during cell][host-owned] the host's; a plugin must not touch it */
    void *host_data;
    /* [data][during cell][host-owned] the cell's width in points */
    double width;
    /* [data][during cell][host-owned] the cell's height in points */
    double height;
    /* [call-thread][during cell][host-owned] one line of text starting at (x, y), cut to max_width points */
    void (*text)(const floor_canvas_t *canvas, double x, double y, double max_width, const char *utf8,
                 uint32_t style);
    /* [call-thread][during cell][host-owned] an image placeholder: a frame naming `source` (URL or asset name) */
    void (*image)(const floor_canvas_t *canvas, double x, double y, double w, double h, const char *source);
    /* [call-thread][during cell][host-owned] a frame (w, h > 0) or a rule (h == 0) */
    void (*box)(const floor_canvas_t *canvas, double x, double y, double w, double h);
    /* Since 1.4 (read each only when struct_size >= its offsetof + its size; a 1.3 host's canvas ends before them): */
    /* [call-thread][during cell][host-owned] one line's width in points, in style (utf8 NULL: 0); draws nothing */
    double (*measure_text)(const floor_canvas_t *canvas, const char *utf8, uint32_t style);
    /* [call-thread][during cell][host-owned] a rectangle (w, h > 0) in a FLOOR_TONE_*, under what is drawn after it */
    void (*fill)(const floor_canvas_t *canvas, double x, double y, double w, double h, uint32_t tone);
    /* Since 1.5 (docs/ABI-1.5.md; a 1.5 plugin only meets a host that fills them): */
    /* [call-thread][during cell][host-owned] floor_host_t.layout_text's answer for the same arguments */
    void (*layout_text)(const floor_canvas_t *canvas, const char *utf8, uint64_t length, uint32_t style,
                        double max_width, uint32_t max_lines, floor_text_layout_t *out);
    /* [call-thread][during cell][host-owned] draws the lines layout_text measures, the first line's top at y */
    void (*text_block)(const floor_canvas_t *canvas, double x, double y, double max_width, uint32_t max_lines,
                       const char *utf8, uint64_t length, uint32_t style);
    /* [call-thread][during cell][host-owned] where tappable item `item` is in this cell; clipped to the cell */
    void (*item_frame)(const floor_canvas_t *canvas, uint64_t item, double x, double y, double w, double h);
    /* [data][during cell][host-owned] the horizontal page this cell draws (0 when the row is not paged) */
    uint64_t page;
    /* [call-thread][during cell][host-owned] a picture from `source` (URL or path) in a FLOOR_IMAGE_* mode */
    void (*fitted_image)(const floor_canvas_t *canvas, double x, double y, double w, double h, const char *source,
                         uint64_t source_length, uint32_t mode);
};

#ifdef __cplusplus
}
#endif

#endif /* FLOOR_ABI_CANVAS_H */
