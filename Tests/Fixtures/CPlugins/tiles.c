/*
 * A C plugin whose floor is a collection (ABI 1.5, docs/ABI.md "Collections"): the fixture for placing items
 * into columns. The "Tiles" floor {"type":"Tiles","id":"w","heights":[100,40,60],"title":true,"end":true}
 * lists an optional title row (20 points, sticky header), one item row (FLOOR_ROW_ITEM) per height, and an
 * optional end row (10 points). A height below 0 makes that tile square: as high as the width it is measured
 * at. Every tile has one tappable item, which jumps to app://tile/<index>. A next page's Tiles floor with the
 * same id appends its heights. The floor type supports list, grid and waterfall, waterfall by default, in 2
 * columns, 10 points apart, lines 5 apart, 15 points of inset. Compile with, e.g.:
 *
 *   cc -shared -fPIC -I SDK/Sources/CFloorABI/include tiles.c -o libTilesFloor.so
 *
 * -DABI14 registers the floor type with a 1.4 struct (it ends before `layouts`): the host lays it out as a
 * list whatever the page says. -DITEM_DRAWS_WIDE makes a tile draw a 200-point frame whatever its width: inside
 * a phone-wide row, outside a column (what `floorhost conform`'s collections check finds). PLUGIN_ID,
 * FLOOR_TYPE and ROW_TYPE rename it (string literals; the title and end rows are FLOOR_TYPE "Title" and "End").
 * -DSCRATCH_LABELS=N makes a tile draw its label from a heap buffer of N bytes (the label, then spaces), which it
 * overwrites with 'X' and frees as soon as the call returns: a host that kept the plugin's pointer past the
 * call would draw X's, or freed memory (the text preview's recording copies every text, CanvasRecording).
 * -DLOG_IN_CELL makes every tile's cell call log a warning ("tile T<index> drawn"): a message reported while the
 * rows are drawn, after their heights.
 */
#include <floor_abi.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PLUGIN_ID
#define PLUGIN_ID "com.example.tiles"
#endif
#ifndef FLOOR_TYPE
#define FLOOR_TYPE "Tiles"
#endif
#ifndef ROW_TYPE
#define ROW_TYPE "Tile"
#endif

static int32_t title_type = -1, tile_type = -1, end_type = -1;

typedef struct tiles {
    double *heights;
    uint64_t count, capacity;
    bool title, end;
    /* Rows the last extend left as they were: the next expand keeps them (ABI 1.2) and lists the rest. */
    uint64_t unchanged;
} tiles_t;

static const char *find(const char *json, uint64_t len, const char *key) {
    size_t k = strlen(key);
    for (uint64_t i = 0; i + k <= len; i++)
        if (memcmp(json + i, key, k) == 0) return json + i + k;
    return NULL;
}

/* Reads "heights":[...], "title":true and "end":true; enough JSON for a fixture. Refuses what is not an
 * object holding a heights array (its first and last non-blank bytes are checked, not the JSON between). */
static void *tiles_decode(void *ctx, const char *json, uint64_t len, const floor_report_t *report) {
    (void)ctx;
    uint64_t first = 0, last = len;
    while (first < len && (json[first] == ' ' || json[first] == '\n' || json[first] == '\t')) first++;
    while (last > first && (json[last - 1] == ' ' || json[last - 1] == '\n' || json[last - 1] == '\t')) last--;
    const char *at = find(json, len, "\"heights\":[");
    if (first == last || json[first] != '{' || json[last - 1] != '}' || !at) {
        report->error(report, "", "expected a Tiles floor object with a \"heights\" array of numbers");
        return NULL;
    }
    tiles_t *tiles = calloc(1, sizeof *tiles);
    if (at) {
        const char *end = json + len;
        while (at < end && *at != ']') {
            char *next;
            double h = strtod(at, &next);
            if (next == at) { at++; continue; }
            if (tiles->count == tiles->capacity) {
                tiles->capacity = tiles->capacity ? 2 * tiles->capacity : 16;
                tiles->heights = realloc(tiles->heights, tiles->capacity * sizeof(double));
            }
            tiles->heights[tiles->count++] = h;
            at = next;
        }
    }
    tiles->title = find(json, len, "\"title\":true") != NULL;
    tiles->end = find(json, len, "\"end\":true") != NULL;
    return tiles;
}

/* Right after an extend, keeps the rows before the new tiles (ABI 1.2), so a long floor extends in
 * O(tiles added); otherwise lists every row. */
static void tiles_expand(void *ctx, void *model, const floor_row_sink_t *sink) {
    (void)ctx;
    tiles_t *tiles = model;
    uint64_t first = 0;
    if (tiles->unchanged > 0 && tiles->unchanged <= sink->reusable) {
        sink->keep(sink, tiles->unchanged);
        first = tiles->unchanged;
    }
    tiles->unchanged = 0;
    uint64_t lead = tiles->title ? 1 : 0;
    uint64_t rows = lead + tiles->count + (tiles->end ? 1 : 0);
    for (uint64_t r = first; r < rows; r++) {
        if (r < lead) sink->add(sink, title_type, FLOOR_ROW_HEADER | FLOOR_ROW_STICKY);
        else if (r < lead + tiles->count) sink->add(sink, tile_type, FLOOR_ROW_ITEM);
        else sink->add(sink, end_type, 0);
    }
}

static void tiles_destroy(void *ctx, void *model) {
    (void)ctx;
    free(((tiles_t *)model)->heights);
    free(model);
}

static void tiles_extend(void *ctx, void *model, void *next, const floor_report_t *report,
                         floor_extend_result_t *result) {
    (void)ctx; (void)report;
    tiles_t *tiles = model, *more = next;
    uint64_t before = (tiles->title ? 1 : 0) + tiles->count;
    /* Doubling: a chain of next pages costs O(tiles added) a page, not a copy of every height. */
    if (tiles->count + more->count > tiles->capacity) {
        tiles->capacity = 2 * (tiles->count + more->count);
        tiles->heights = realloc(tiles->heights, tiles->capacity * sizeof(double));
    }
    memcpy(tiles->heights + tiles->count, more->heights, more->count * sizeof(double));
    tiles->count += more->count;
    result->unchanged_leading = before;
    result->unchanged_trailing = tiles->end ? 1 : 0;
    tiles->unchanged = before;
}

/* row is the row's index in the floor: the title row, if any, comes first. */
static uint64_t tile_index(tiles_t *tiles, uint64_t row) { return row - (tiles->title ? 1 : 0); }

static double title_height(void *ctx, void *model, uint64_t row, double width) {
    (void)ctx; (void)model; (void)row; (void)width;
    return 20;
}

static double end_height(void *ctx, void *model, uint64_t row, double width) {
    (void)ctx; (void)model; (void)row; (void)width;
    return 10;
}

static double tile_height(void *ctx, void *model, uint64_t row, double width) {
    (void)ctx;
    tiles_t *tiles = model;
    double h = tiles->heights[tile_index(tiles, row)];
    return h < 0 ? width : h;
}

static void title_cell(void *ctx, void *model, uint64_t row, const floor_canvas_t *canvas) {
    (void)ctx; (void)model; (void)row;
    canvas->text(canvas, 0, 4, canvas->width, "Tiles", FLOOR_TEXT_BOLD);
}

static void end_cell(void *ctx, void *model, uint64_t row, const floor_canvas_t *canvas) {
    (void)ctx; (void)model; (void)row;
    canvas->box(canvas, 0, 0, canvas->width, 0);
}

#ifdef LOG_IN_CELL
static const floor_host_t *the_host;
#endif

static void tile_cell(void *ctx, void *model, uint64_t row, const floor_canvas_t *canvas) {
    (void)ctx;
    char label[32];
    snprintf(label, sizeof label, "T%llu", (unsigned long long)tile_index(model, row));
#ifdef LOG_IN_CELL
    char message[48];
    snprintf(message, sizeof message, "tile %s drawn", label);
    the_host->log(the_host, FLOOR_LOG_WARNING, message);
#endif
#ifdef ITEM_DRAWS_WIDE
    canvas->box(canvas, 0, 0, 200, canvas->height);
#else
    canvas->box(canvas, 0, 0, canvas->width, canvas->height);
#endif
#ifdef SCRATCH_LABELS
    size_t size = (SCRATCH_LABELS) > sizeof label ? (SCRATCH_LABELS) : sizeof label;
    char *scratch = malloc(size);
    if (!scratch) return;
    memset(scratch, ' ', size - 1);
    scratch[size - 1] = 0;
    memcpy(scratch, label, strlen(label));
    canvas->text(canvas, 5, 0, canvas->width - 10, scratch, 0);
    canvas->text_block(canvas, 5, 12, canvas->width - 10, 1, scratch, strlen(label), FLOOR_TEXT_BOLD);
    canvas->image(canvas, 5, 24, canvas->width - 10, 24, scratch);
    canvas->fitted_image(canvas, 5, 48, canvas->width - 10, 24, scratch, strlen(label), FLOOR_IMAGE_FIT);
    memset(scratch, 'X', size - 1);
    free(scratch);
#else
    canvas->text(canvas, 5, 0, canvas->width - 10, label, 0);
#endif
}

static uint64_t tile_tappable(void *ctx, void *model, uint64_t row) {
    (void)ctx; (void)model; (void)row;
    return 1;
}

static bool tile_action(void *ctx, void *model, uint64_t row, uint64_t item, const floor_action_sink_t *sink) {
    (void)ctx; (void)item;
    char url[48];
    snprintf(url, sizeof url, "app://tile/%llu", (unsigned long long)tile_index(model, row));
    sink->jump(sink, url, "tile_click");
    return true;
}

static bool tiles_init(const floor_host_t *host) {
#ifdef LOG_IN_CELL
    the_host = host;
#endif
    floor_row_type_t title = {
        .struct_size = sizeof title, .type_name = FLOOR_TYPE "Title",
        .height = {"heightForTilesTitle:width:", FLOOR_SIG_HEIGHT, (floor_fn_t)title_height},
        .cell = {"cellForTilesTitle:canvas:", FLOOR_SIG_CELL, (floor_fn_t)title_cell},
    };
    title_type = host->register_row_type(host, &title);
    floor_row_type_t tile = {
        .struct_size = sizeof tile, .type_name = ROW_TYPE,
        .height = {"heightForTile:width:", FLOOR_SIG_HEIGHT, (floor_fn_t)tile_height},
        .cell = {"cellForTile:canvas:", FLOOR_SIG_CELL, (floor_fn_t)tile_cell},
        .tappable = {"tappableItemsOfTile:", FLOOR_SIG_TAPPABLE, (floor_fn_t)tile_tappable},
        .action = {"actionForTile:item:sink:", FLOOR_SIG_ACTION, (floor_fn_t)tile_action},
    };
    tile_type = host->register_row_type(host, &tile);
    floor_row_type_t end = {
        .struct_size = sizeof end, .type_name = FLOOR_TYPE "End",
        .height = {"heightForTilesEnd:width:", FLOOR_SIG_HEIGHT, (floor_fn_t)end_height},
        .cell = {"cellForTilesEnd:canvas:", FLOOR_SIG_CELL, (floor_fn_t)end_cell},
    };
    end_type = host->register_row_type(host, &end);
    floor_floor_type_t floor = {
#ifdef ABI14
        .struct_size = offsetof(floor_floor_type_t, layouts),
#else
        .struct_size = sizeof floor,
#endif
        .type_name = FLOOR_TYPE,
        .sample_json = "{\"type\":\"" FLOOR_TYPE "\",\"id\":\"tiles\",\"heights\":[100,40,60,30,-1],\"title\":true}",
        .decode = {"decodeTiles:", FLOOR_SIG_DECODE, (floor_fn_t)tiles_decode},
        .expand = {"expandTiles:", FLOOR_SIG_EXPAND, (floor_fn_t)tiles_expand},
        .destroy = {"destroyTiles:", FLOOR_SIG_DESTROY, (floor_fn_t)tiles_destroy},
        .extend = {"extendTiles:with:", FLOOR_SIG_EXTEND, (floor_fn_t)tiles_extend},
        .layouts = FLOOR_LAYOUT_LIST | FLOOR_LAYOUT_GRID | FLOOR_LAYOUT_WATERFALL,
        .default_layout = FLOOR_LAYOUT_WATERFALL,
        .default_columns = 2,
        .column_gap = 10,
        .line_gap = 5,
        .inset = 15,
    };
    return host->register_floor_type(host, &floor);
}

static const floor_plugin_descriptor_t descriptor = {
    .struct_size = sizeof descriptor, .abi_major = FLOOR_ABI_MAJOR, .abi_minor = FLOOR_ABI_MINOR,
    .id = PLUGIN_ID, .name = "Tiles", .version = "0.1.0", .init = tiles_init,
};

const floor_plugin_descriptor_t *floor_plugin_entry(void) { return &descriptor; }
