/*
 * A C plugin whose floor has its own sticky row (not a title header): the "Countdown" floor
 * {"type":"Countdown","id":"c","lines":N} lists a banner (row 0, "CountdownBanner", 100 points), a strip
 * that says when the sale ends (row 1, "CountdownStrip", 30 points, FLOOR_ROW_STICKY) and N lines
 * (rows 2..., "CountdownLine", 50 points each; N defaults to 6). The fixture for sticky plugin rows:
 * once the strip scrolls above the top it is pinned there while the lines scroll under it, and the next
 * sticky row (a later floor's sticky header) pushes it up and takes over.
 */
#include <floor_abi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int32_t banner_type = -1, strip_type = -1, line_type = -1;

typedef struct countdown { uint64_t lines; } countdown_t;

/* Reads "lines":N when present; enough JSON for a fixture. */
static void *countdown_decode(void *ctx, const char *json, uint64_t len, const floor_report_t *report) {
    (void)ctx; (void)report;
    countdown_t *countdown = calloc(1, sizeof *countdown);
    countdown->lines = 6;
    static const char key[] = "\"lines\":";
    for (uint64_t i = 0; i + sizeof key - 1 < len; i++) {
        if (memcmp(json + i, key, sizeof key - 1) == 0) {
            countdown->lines = strtoull(json + i + sizeof key - 1, NULL, 10);
            break;
        }
    }
    return countdown;
}

static void countdown_expand(void *ctx, void *model, const floor_row_sink_t *sink) {
    (void)ctx;
    sink->add(sink, banner_type, 0);
    sink->add(sink, strip_type, FLOOR_ROW_STICKY);  /* the plugin's own sticky row: no FLOOR_ROW_HEADER */
    for (uint64_t r = 0; r < ((countdown_t *)model)->lines; r++) sink->add(sink, line_type, 0);
}

static void countdown_destroy(void *ctx, void *model) { (void)ctx; free(model); }

static double banner_height(void *ctx, void *model, uint64_t row, double width) {
    (void)ctx; (void)model; (void)row; (void)width;
    return 100;
}

static double strip_height(void *ctx, void *model, uint64_t row, double width) {
    (void)ctx; (void)model; (void)row; (void)width;
    return 30;
}

static double line_height(void *ctx, void *model, uint64_t row, double width) {
    (void)ctx; (void)model; (void)row; (void)width;
    return 50;
}

static void banner_cell(void *ctx, void *model, uint64_t row, const floor_canvas_t *canvas) {
    (void)ctx; (void)model; (void)row;
    canvas->text(canvas, 8, 8, canvas->width - 16, "Flash sale banner", FLOOR_TEXT_BOLD);
}

static void strip_cell(void *ctx, void *model, uint64_t row, const floor_canvas_t *canvas) {
    (void)ctx; (void)model; (void)row;
    canvas->text(canvas, 8, 0, canvas->width - 16, "Ends in 01:23:45", FLOOR_TEXT_BOLD);
}

static void line_cell(void *ctx, void *model, uint64_t row, const floor_canvas_t *canvas) {
    (void)ctx; (void)model;
    char text[32];
    snprintf(text, sizeof text, "deal %llu", (unsigned long long)(row - 1));
    canvas->text(canvas, 8, 8, canvas->width - 16, text, 0);
}

static int32_t register_row(const floor_host_t *host, const char *name, floor_fn_t height, floor_fn_t cell) {
    floor_row_type_t row = {
        .struct_size = sizeof row, .type_name = name, .context = NULL,
        .height = {"heightForRow:width:", FLOOR_SIG_HEIGHT, height},
        .cell = {"cellForRow:canvas:", FLOOR_SIG_CELL, cell},
    };
    return host->register_row_type(host, &row);
}

static bool countdown_init(const floor_host_t *host) {
    banner_type = register_row(host, "CountdownBanner", (floor_fn_t)banner_height, (floor_fn_t)banner_cell);
    strip_type = register_row(host, "CountdownStrip", (floor_fn_t)strip_height, (floor_fn_t)strip_cell);
    line_type = register_row(host, "CountdownLine", (floor_fn_t)line_height, (floor_fn_t)line_cell);
    floor_floor_type_t floor = {
        .struct_size = sizeof floor, .type_name = "Countdown", .context = NULL,
        .sample_json = "{\"type\":\"Countdown\",\"id\":\"sale\",\"lines\":3}",
        .decode = {"decodeCountdown:", FLOOR_SIG_DECODE, (floor_fn_t)countdown_decode},
        .expand = {"expandCountdown:", FLOOR_SIG_EXPAND, (floor_fn_t)countdown_expand},
        .destroy = {"destroyCountdown:", FLOOR_SIG_DESTROY, (floor_fn_t)countdown_destroy},
    };
    return host->register_floor_type(host, &floor);
}

static const floor_plugin_descriptor_t descriptor = {
    .struct_size = sizeof descriptor, .abi_major = FLOOR_ABI_MAJOR, .abi_minor = FLOOR_ABI_MINOR,
    .id = "com.floorkit.test.countdown", .name = "Countdown (C)", .version = "0.1.0", .init = countdown_init,
};

const floor_plugin_descriptor_t *floor_plugin_entry(void) { return &descriptor; }
