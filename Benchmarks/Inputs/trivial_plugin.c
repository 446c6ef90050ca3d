/*
 * The trivial floor plugin the benchmarks load: its selectors do (almost) nothing, so what is timed is
 * the host's own work. Scripts/bench compiles it with `cc -O2 -shared -fPIC` against floor_abi.h, once as
 * the "Bulk" plugin and 100 times with other names for the plugin-loading figure.
 *
 * Floor type FLOOR_TYPE: {"type":"Bulk","id":"b1","rows":1000} decodes to a model holding the row count
 * and expands into that many rows of row type ROW_TYPE. Heights are 40..47 points (by row index), the
 * cell draws nothing; compiled with -DBULK_DRAWS (the terminal view's figures) it draws what a product row
 * does: a bold title, a muted line, an accent price and a rule.
 *
 * It also exports the dlsym-per-row way of finding a cell: one C symbol per row model type, named
 * "cellFor" + type name and "heightFor" + type name (iOS: NSSelectorFromString(@"tableView:cellFor%@:")),
 * which the dispatch benchmark looks up with dlsym for every row.
 *
 *   PLUGIN_ID (a string), FLOOR, ROW (identifiers)   identity; the defaults are the Bulk plugin's
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "floor_abi.h"

#ifndef PLUGIN_ID
#define PLUGIN_ID "com.floorkit.bench.bulk"
#endif
#ifndef FLOOR
#define FLOOR Bulk
#endif
#ifndef ROW
#define ROW BulkRow
#endif
#define STRING_(x) #x
#define STRING(x) STRING_(x)
#define CONCAT_(a, b) a##b
#define CONCAT(a, b) CONCAT_(a, b)
#define FLOOR_TYPE STRING(FLOOR)
#define ROW_TYPE STRING(ROW)

typedef struct bulk { uint64_t rows; } bulk_t;

static int32_t row_type_id = -1;

/* Reads "rows":N from the floor object (digits only; enough for generated pages). */
static void *bulk_decode(void *ctx, const char *json, uint64_t len, const floor_report_t *report) {
    (void)ctx;
    static const char key[] = "\"rows\":";
    for (uint64_t i = 0; i + sizeof key - 1 < len; i++) {
        if (memcmp(json + i, key, sizeof key - 1) != 0) continue;
        uint64_t n = 0;
        for (uint64_t j = i + sizeof key - 1; j < len && json[j] >= '0' && json[j] <= '9'; j++) n = n * 10 + (uint64_t)(json[j] - '0');
        bulk_t *model = malloc(sizeof *model);
        model->rows = n;
        return model;
    }
    report->error(report, "rows", "a bulk floor needs \"rows\": a row count");
    return NULL;
}

static void bulk_expand(void *ctx, void *model, const floor_row_sink_t *sink) {
    (void)ctx;
    const bulk_t *bulk = model;
    for (uint64_t i = 0; i < bulk->rows; i++) sink->add(sink, row_type_id, 0);
}

static void bulk_destroy(void *ctx, void *model) { (void)ctx; free(model); }

static double bulk_height(void *ctx, void *model, uint64_t row, double width) {
    (void)ctx; (void)model; (void)width;
    return 40.0 + (double)(row & 7);
}

static void bulk_cell(void *ctx, void *model, uint64_t row, const floor_canvas_t *canvas) {
    (void)ctx; (void)model;
#ifdef BULK_DRAWS
    char line[64];
    snprintf(line, sizeof line, "Bulk row %llu", (unsigned long long)row);
    canvas->text(canvas, 10, 2, canvas->width - 80, line, FLOOR_TEXT_BOLD);
    canvas->text(canvas, 10, 14, canvas->width - 80, "a line of secondary text, cut where it must", FLOOR_TEXT_MUTED);
    canvas->text(canvas, canvas->width - 60, 14, 60, "¥19.90", FLOOR_TEXT_ACCENT);
    canvas->box(canvas, 0, canvas->height - 1, canvas->width, 0);
#else
    (void)row; (void)canvas;
#endif
}

/* The per-class symbols of the dlsym-per-row way: same functions, found by name. */
double CONCAT(heightFor, ROW)(void *ctx, void *model, uint64_t row, double width) {
    return bulk_height(ctx, model, row, width);
}
void CONCAT(cellFor, ROW)(void *ctx, void *model, uint64_t row, const floor_canvas_t *canvas) {
    bulk_cell(ctx, model, row, canvas);
}

static bool bulk_init(const floor_host_t *host) {
    floor_row_type_t row = {
        .struct_size = sizeof row, .type_name = ROW_TYPE, .context = NULL,
        .height = {"heightFor" ROW_TYPE ":width:", FLOOR_SIG_HEIGHT, (floor_fn_t)bulk_height},
        .cell = {"cellFor" ROW_TYPE ":canvas:", FLOOR_SIG_CELL, (floor_fn_t)bulk_cell},
    };
    row_type_id = host->register_row_type(host, &row);
    floor_floor_type_t floor = {
        .struct_size = sizeof floor, .type_name = FLOOR_TYPE, .context = NULL,
        .sample_json = "{\"type\":\"" FLOOR_TYPE "\",\"id\":\"bulk\",\"rows\":3}",
        .decode = {"decode" FLOOR_TYPE ":", FLOOR_SIG_DECODE, (floor_fn_t)bulk_decode},
        .expand = {"expand" FLOOR_TYPE ":", FLOOR_SIG_EXPAND, (floor_fn_t)bulk_expand},
        .destroy = {"destroy" FLOOR_TYPE ":", FLOOR_SIG_DESTROY, (floor_fn_t)bulk_destroy},
    };
    return row_type_id >= 0 && host->register_floor_type(host, &floor);
}

static const floor_plugin_descriptor_t descriptor = {
    .struct_size = sizeof descriptor, .abi_major = FLOOR_ABI_MAJOR, .abi_minor = FLOOR_ABI_MINOR,
    .id = PLUGIN_ID, .name = "Bulk (benchmark)", .version = "1.0.0", .init = bulk_init,
};

const floor_plugin_descriptor_t *floor_plugin_entry(void) { return &descriptor; }
