/*
 * A floor plugin in plain C whose behaviour is set by data, not code, for PluginTrustTests: built with
 * -DMOOD='"quiet"' it registers the "Mood" floor ({"type":"Mood","id":"m"}, one row drawing "MOOD-OK");
 * built with -DMOOD='"abort"' its init aborts. The two builds differ only in those five bytes of data,
 * so the libraries have the same size: what the scan cache must tell apart by content.
 */
#include <stdint.h>
#include <stdlib.h>
#include "floor_abi.h"

#ifndef MOOD
#define MOOD "quiet"
#endif

/* volatile: read at run time, so the compiler cannot fold the test and make the two builds' code differ. */
static volatile const char mood[] = MOOD;
static int32_t mood_row_type = -1;

static void *mood_decode(void *ctx, const char *json, uint64_t len, const floor_report_t *report) {
    (void)ctx; (void)json; (void)len; (void)report;
    return calloc(1, 8);
}

static void mood_expand(void *ctx, void *model, const floor_row_sink_t *sink) {
    (void)ctx; (void)model;
    sink->add(sink, mood_row_type, 0);
}

static void mood_destroy(void *ctx, void *model) { (void)ctx; free(model); }

static double mood_height(void *ctx, void *model, uint64_t row, double width) {
    (void)ctx; (void)model; (void)row; (void)width;
    return 24;
}

static void mood_cell(void *ctx, void *model, uint64_t row, const floor_canvas_t *canvas) {
    (void)ctx; (void)model; (void)row;
    canvas->text(canvas, 0, 0, canvas->width, "MOOD-OK", 0);
}

static bool mood_init(const floor_host_t *host) {
    if (mood[0] == 'a') abort();
    floor_row_type_t row = {
        .struct_size = sizeof row, .type_name = "MoodRow", .context = NULL,
        .height = {"heightForMoodRow:width:", FLOOR_SIG_HEIGHT, (floor_fn_t)mood_height},
        .cell = {"cellForMoodRow:canvas:", FLOOR_SIG_CELL, (floor_fn_t)mood_cell},
    };
    mood_row_type = host->register_row_type(host, &row);
    floor_floor_type_t floor = {
        .struct_size = sizeof floor, .type_name = "Mood", .context = NULL,
        .sample_json = "{\"type\":\"Mood\",\"id\":\"m\"}",
        .decode = {"decodeMood:", FLOOR_SIG_DECODE, (floor_fn_t)mood_decode},
        .expand = {"expandMood:", FLOOR_SIG_EXPAND, (floor_fn_t)mood_expand},
        .destroy = {"destroyMood:", FLOOR_SIG_DESTROY, (floor_fn_t)mood_destroy},
    };
    host->register_floor_type(host, &floor);
    return true;
}

static const floor_plugin_descriptor_t descriptor = {
    .struct_size = sizeof descriptor, .abi_major = FLOOR_ABI_MAJOR, .abi_minor = FLOOR_ABI_MINOR,
    .id = "com.floorkit.test.mood", .name = "Mood (C)", .version = "0.1.0", .init = mood_init,
};

const floor_plugin_descriptor_t *floor_plugin_entry(void) { return &descriptor; }
