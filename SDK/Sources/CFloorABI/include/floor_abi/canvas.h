/*
 * floor_abi/canvas.h: the canvas a cell draws into, its text styles and its fill tones. Each output backend
 * (text, JSON, HTML) implements one, so a plugin draws once for every output (docs/ABI.md, "Canvas").
 * Part of floor_abi.h, which a plugin includes (its top comment explains the [tags]).
 */
#ifndef FLOOR_ABI_CANVAS_H
#define FLOOR_ABI_CANVAS_H

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
};

#ifdef __cplusplus
}
#endif

#endif /* FLOOR_ABI_CANVAS_H */
