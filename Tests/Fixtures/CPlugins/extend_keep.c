/*
 * A C plugin for ABI 1.2's floor_row_sink_t.keep: the "Run" floor {"type":"Run","id":"r","count":N} has N
 * rows of row type "RunRow"; a next page's Run floor with the same id extends it by its count. Right after
 * an extend, expand keeps the rows the host says it still has and lists only the new ones. Variants:
 *
 *   KEEP_BEYOND      keep(reusable + 5): more rows than the host holds (the host ignores the call)
 *   KEEP_AFTER_ADD   lists row 0 again, then calls keep (the host ignores the call)
 *   NO_KEEP          never calls keep: lists every row each time, as a 1.1 plugin does
 */
#include <floor_abi.h>
#include <stdlib.h>
#include <string.h>

static int32_t run_row_type = -1;

typedef struct run { uint64_t count; } run_t;

static void *run_decode(void *ctx, const char *json, uint64_t len, const floor_report_t *report) {
    (void)ctx; (void)report;
    run_t *run = calloc(1, sizeof *run);
    static const char key[] = "\"count\":";
    for (uint64_t i = 0; i + sizeof key - 1 < len; i++) {
        if (memcmp(json + i, key, sizeof key - 1) == 0) {
            run->count = strtoull(json + i + sizeof key - 1, NULL, 10);
            break;
        }
    }
    return run;
}

static void run_expand(void *ctx, void *model, const floor_row_sink_t *sink) {
    (void)ctx;
    uint64_t first = 0;
#ifndef NO_KEEP
    if (sink->keep && sink->reusable > 0) {
#if defined(KEEP_BEYOND)
        first = sink->reusable + 5;
        sink->keep(sink, first);
#elif defined(KEEP_AFTER_ADD)
        sink->add(sink, run_row_type, 0);
        sink->keep(sink, sink->reusable);
        first = sink->reusable;
#else
        first = sink->reusable;
        sink->keep(sink, first);
#endif
    }
#endif
    for (uint64_t r = first; r < ((run_t *)model)->count; r++) sink->add(sink, run_row_type, 0);
}

static void run_extend(void *ctx, void *model, void *next, const floor_report_t *report, floor_extend_result_t *result) {
    (void)ctx; (void)report;
    run_t *run = model;
    result->unchanged_leading = run->count;
    result->unchanged_trailing = 0;
    run->count += ((run_t *)next)->count;
}

static void run_destroy(void *ctx, void *model) { (void)ctx; free(model); }

static double run_height(void *ctx, void *model, uint64_t row, double width) {
    (void)ctx; (void)model; (void)row; (void)width;
    return 10;
}

static void run_cell(void *ctx, void *model, uint64_t row, const floor_canvas_t *canvas) {
    (void)ctx; (void)model; (void)row;
    canvas->box(canvas, 0, 0, canvas->width, canvas->height);
}

static bool run_init(const floor_host_t *host) {
    floor_row_type_t row = {
        .struct_size = sizeof row, .type_name = "RunRow", .context = NULL,
        .height = {"heightForRunRow:width:", FLOOR_SIG_HEIGHT, (floor_fn_t)run_height},
        .cell = {"cellForRunRow:canvas:", FLOOR_SIG_CELL, (floor_fn_t)run_cell},
    };
    run_row_type = host->register_row_type(host, &row);
    floor_floor_type_t floor = {
        .struct_size = sizeof floor, .type_name = "Run", .context = NULL,
        .sample_json = "{\"type\":\"Run\",\"id\":\"run\",\"count\":2}",
        .decode = {"decodeRun:", FLOOR_SIG_DECODE, (floor_fn_t)run_decode},
        .expand = {"expandRun:", FLOOR_SIG_EXPAND, (floor_fn_t)run_expand},
        .destroy = {"destroyRun:", FLOOR_SIG_DESTROY, (floor_fn_t)run_destroy},
        .extend = {"extendRun:with:", FLOOR_SIG_EXTEND, (floor_fn_t)run_extend},
    };
    return host->register_floor_type(host, &floor);
}

static const floor_plugin_descriptor_t descriptor = {
    .struct_size = sizeof descriptor, .abi_major = FLOOR_ABI_MAJOR, .abi_minor = FLOOR_ABI_MINOR,
    .id = "com.example.run", .name = "Runs of rows", .version = "0.1.0", .init = run_init,
};

const floor_plugin_descriptor_t *floor_plugin_entry(void) { return &descriptor; }
