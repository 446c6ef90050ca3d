/*
 * A C plugin whose height calculator returns whatever HEIGHT says: the fixture for heights out of the
 * bounds floor_abi.h states (FLOOR_MAX_ROW_HEIGHT). The "Tall" floor {"type":"Tall","id":"t","rows":N}
 * has N rows (default 1) of row type "TallRow", each HEIGHT points high. Compile with, e.g.:
 *
 *   cc -shared -fPIC -I SDK/Sources/CFloorABI/include -DHEIGHT=1e300 heights.c -o libTallFloor.so
 *
 * HEIGHT may be any C double expression: 1e12, 1e300, -5, __builtin_nan(""), __builtin_inf(). The cell
 * draws a frame of its whole canvas and a line of text, so a tall row is as costly to draw as it can be.
 */
#include <floor_abi.h>
#include <stdlib.h>
#include <string.h>

#ifndef HEIGHT
#define HEIGHT 40.0
#endif

static int32_t tall_row_type = -1;

typedef struct tall { uint64_t rows; } tall_t;

/* Reads "rows":N when present; enough JSON for a fixture. */
static void *tall_decode(void *ctx, const char *json, uint64_t len, const floor_report_t *report) {
    (void)ctx; (void)report;
    tall_t *tall = calloc(1, sizeof *tall);
    tall->rows = 1;
    static const char key[] = "\"rows\":";
    for (uint64_t i = 0; i + sizeof key - 1 < len; i++) {
        if (memcmp(json + i, key, sizeof key - 1) == 0) {
            tall->rows = strtoull(json + i + sizeof key - 1, NULL, 10);
            break;
        }
    }
    return tall;
}

static void tall_expand(void *ctx, void *model, const floor_row_sink_t *sink) {
    (void)ctx;
    for (uint64_t r = 0; r < ((tall_t *)model)->rows; r++) sink->add(sink, tall_row_type, 0);
}

static void tall_destroy(void *ctx, void *model) { (void)ctx; free(model); }

static double tall_height(void *ctx, void *model, uint64_t row, double width) {
    (void)ctx; (void)model; (void)row; (void)width;
    return HEIGHT;
}

static void tall_cell(void *ctx, void *model, uint64_t row, const floor_canvas_t *canvas) {
    (void)ctx; (void)model; (void)row;
    canvas->box(canvas, 0, 0, canvas->width, canvas->height);
    canvas->text(canvas, 8, 12, canvas->width - 16, "tall row", FLOOR_TEXT_BOLD);
}

static bool tall_init(const floor_host_t *host) {
    floor_row_type_t row = {
        .struct_size = sizeof row, .type_name = "TallRow", .context = NULL,
        .height = {"heightForTallRow:width:", FLOOR_SIG_HEIGHT, (floor_fn_t)tall_height},
        .cell = {"cellForTallRow:canvas:", FLOOR_SIG_CELL, (floor_fn_t)tall_cell},
    };
    tall_row_type = host->register_row_type(host, &row);
    floor_floor_type_t floor = {
        .struct_size = sizeof floor, .type_name = "Tall", .context = NULL,
        .sample_json = "{\"type\":\"Tall\",\"id\":\"tall\",\"rows\":2}",
        .decode = {"decodeTall:", FLOOR_SIG_DECODE, (floor_fn_t)tall_decode},
        .expand = {"expandTall:", FLOOR_SIG_EXPAND, (floor_fn_t)tall_expand},
        .destroy = {"destroyTall:", FLOOR_SIG_DESTROY, (floor_fn_t)tall_destroy},
    };
    return host->register_floor_type(host, &floor);
}

static const floor_plugin_descriptor_t descriptor = {
    .struct_size = sizeof descriptor, .abi_major = FLOOR_ABI_MAJOR, .abi_minor = FLOOR_ABI_MINOR,
    .id = "com.example.tall", .name = "Tall rows", .version = "0.1.0", .init = tall_init,
};

const floor_plugin_descriptor_t *floor_plugin_entry(void) { return &descriptor; }
