/*
 * A floor plugin in plain C with every optional selector of ABI 1.1 (validate, extend, tappable, action),
 * for the conformance checks that call them (`actions`, `extend`, `validate`) and for next-page tests.
 * The "Listing" floor is {"type":"Listing","id":"l","items":[{"id":"a"},{"id":"b"}]}: one ListingRow per
 * item, drawing the item's id, with one tappable item whose action jumps to "app://listing/<id>" with
 * eventId "listing_tap" and the param id=<id>. A next page's floor with the same id extends it: items with
 * new ids are appended, each duplicate is reported ("items[i]") and dropped. The validator refuses a
 * listing without items. Enough JSON for a test plugin: ids are read as "id":"..." inside "items":[...],
 * without escapes. Macros, each a defect exactly one check of `floorhost conform` must catch:
 *   CRASH_IN_ACTION          the action writes through NULL for the last item of the floor   (actions)
 *   ACTION_EMPTY_URL         the action jumps to ""                                          (actions)
 *   EXTEND_KEEPS_DUPLICATES  extend appends every item of the next page, reporting nothing   (extend)
 *   EXTEND_PREPENDS          extend puts the new items first, yet claims the old rows lead   (extend)
 *   VALIDATE_REFUSES_ALL     the validator refuses every listing, its sample too             (validate)
 *   WITH_SCHEMA              declare a schema (ABI 1.3): "items" required, an array of objects each requiring
 *                            a string "id"; the decoder then refuses an item without one, at "items[i].id"
 *   ITEM_ID_OPTIONAL         with WITH_SCHEMA: the decoder skips an item without a string "id", though the
 *                            schema requires it (a copy of the sample without items[0].id is not refused) (validate)
 *   DROPS_ITEM_WITHOUT_ID    with WITH_SCHEMA: such an item is left out and the validator reports it as a
 *                            warning at "items[i]" (returning true), as the SDK's @DroppingBrokenItems does:
 *                            conform's `validate` counts that as refusing the item, and passes
 *   FUZZ_PLANTED_CRASH       decode writes through NULL for an item id longer than 100 bytes (what
 *                            `conform --fuzz` must find; the samples never reach it)
 *   FUZZ_PLANTED_HANG        the height calculator never returns for a row whose id is not ASCII
 *   PLUGIN_ID, FLOOR_TYPE, ROW_TYPE   identity
 * Bugs only page data reaches, in every build: an item id "fatal:<selector>" (decode, height, cell,
 * action) makes that selector print a Swift-style fatal error to stderr and trap, as a Swift plugin's
 * force-unwrap does; render, check and conform must quote that line with the crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "floor_abi.h"

#ifndef PLUGIN_ID
#define PLUGIN_ID "com.floorkit.test.listing"
#endif
#ifndef FLOOR_TYPE
#define FLOOR_TYPE "Listing"
#endif
#ifndef ROW_TYPE
#define ROW_TYPE "ListingRow"
#endif

#define MAX_ITEMS 256
typedef struct listing { int count; int left_out; char ids[MAX_ITEMS][32]; } listing_t;  /* left_out: first item index dropped, or -1 */

static int32_t listing_row_type = -1;

static void fatal_if(const char *id, const char *stage) {
    if (strncmp(id, "fatal:", 6) != 0 || strcmp(id + 6, stage) != 0) return;
    fprintf(stderr, "ListingFloor/ListingFloor.swift:115: Fatal error: Unexpectedly found nil while unwrapping an Optional value\n");
    fflush(stderr);
    __builtin_trap();
}

static void *listing_decode(void *ctx, const char *json, uint64_t len, const floor_report_t *report) {
    (void)ctx;
    static const char items_key[] = "\"items\":[";
    const char *end = json + len, *at = NULL;
    for (const char *p = json; p + sizeof items_key - 1 <= end; p++) {
        if (memcmp(p, items_key, sizeof items_key - 1) == 0) { at = p + sizeof items_key - 1; break; }
    }
    if (!at) { report->error(report, "items", "a listing needs an \"items\" array"); return NULL; }
    const char *close = memchr(at, ']', (size_t)(end - at));
    if (!close) { report->error(report, "items", "unterminated array"); return NULL; }
    static const char id_key[] = "\"id\":\"";
    listing_t *listing = calloc(1, sizeof *listing);
    listing->left_out = -1;
#if defined(WITH_SCHEMA) && !defined(ITEM_ID_OPTIONAL)
    /* What the schema requires: every item (a flat object) has a string id. */
    int index = 0;
    for (const char *p = at; p < close; p++) {
        if (*p != '{') continue;
        const char *stop = memchr(p, '}', (size_t)(close - p));
        if (!stop) stop = close;
        int found = 0;
        for (const char *q = p; q + sizeof id_key - 1 <= stop; q++) found |= memcmp(q, id_key, sizeof id_key - 1) == 0;
        if (!found) {
#ifdef DROPS_ITEM_WITHOUT_ID
            if (listing->left_out < 0) listing->left_out = index;
#else
            char path[32];
            snprintf(path, sizeof path, "items[%d].id", index);
            report->error(report, path, "an item needs a string \"id\"");
            free(listing);
            return NULL;
#endif
        }
        index++;
        p = stop;
    }
#endif
    for (const char *p = at; p + sizeof id_key - 1 <= close && listing->count < MAX_ITEMS; p++) {
        if (memcmp(p, id_key, sizeof id_key - 1) != 0) continue;
        const char *start = p + sizeof id_key - 1, *stop = memchr(start, '"', (size_t)(close - start));
        if (!stop) break;
#ifdef FUZZ_PLANTED_CRASH
        if (stop - start > 100) *(volatile int *)(uintptr_t)0 = 1;
#endif
        size_t n = (size_t)(stop - start) < 31 ? (size_t)(stop - start) : 31;
        memcpy(listing->ids[listing->count], start, n);
        fatal_if(listing->ids[listing->count++], "decode");
        p = stop;
    }
    return listing;
}

static void listing_expand(void *ctx, void *model, const floor_row_sink_t *sink) {
    (void)ctx;
    for (int i = 0; i < ((listing_t *)model)->count; i++) sink->add(sink, listing_row_type, 0);
}

static void listing_destroy(void *ctx, void *model) { (void)ctx; free(model); }

static bool listing_validate(void *ctx, void *model, const floor_report_t *report) {
    (void)ctx;
#ifdef VALIDATE_REFUSES_ALL
    (void)model;
    report->error(report, "items[0].id", "no listing is ever valid");
    return false;
#else
    if (((listing_t *)model)->count == 0) { report->error(report, "items", "a listing needs at least one item"); return false; }
    if (((listing_t *)model)->left_out >= 0) {  /* a warning: the floor is shown without that item */
        char path[32];
        snprintf(path, sizeof path, "items[%d]", ((listing_t *)model)->left_out);
        report->error(report, path, "has no string \"id\"; item left out");
    }
    return true;
#endif
}

static void listing_extend(void *ctx, void *model, void *next_model, const floor_report_t *report, floor_extend_result_t *result) {
    (void)ctx;
    listing_t *listing = model;
    const listing_t *next = next_model;
    int old = listing->count;
    for (int i = 0; i < next->count && listing->count < MAX_ITEMS; i++) {
        int duplicate = 0;
#ifndef EXTEND_KEEPS_DUPLICATES
        for (int j = 0; j < listing->count; j++) duplicate |= strcmp(listing->ids[j], next->ids[i]) == 0;
#endif
        if (duplicate) {
            char path[32], message[96];
            snprintf(path, sizeof path, "items[%d]", i);
            snprintf(message, sizeof message, "duplicate item id '%s' dropped", next->ids[i]);
            report->error(report, path, message);
            continue;
        }
        memcpy(listing->ids[listing->count++], next->ids[i], 32);
    }
#ifdef EXTEND_PREPENDS
    /* The new items move to the front, while the claim below still says the old rows lead. */
    listing_t merged = {.left_out = listing->left_out};
    for (int i = old; i < listing->count; i++) memcpy(merged.ids[merged.count++], listing->ids[i], 32);
    for (int i = 0; i < old; i++) memcpy(merged.ids[merged.count++], listing->ids[i], 32);
    *listing = merged;
#endif
    result->unchanged_leading = (uint64_t)old;
    result->unchanged_trailing = 0;
}

static double listing_height(void *ctx, void *model, uint64_t row, double width) {
    (void)ctx; (void)width;
    fatal_if(((listing_t *)model)->ids[row], "height");
#ifdef FUZZ_PLANTED_HANG
    for (const char *c = ((listing_t *)model)->ids[row]; *c; c++) {
        if ((unsigned char)*c >= 0x80) for (volatile int spin = 1; spin;) {}
    }
#endif
    return 24;
}

static void listing_cell(void *ctx, void *model, uint64_t row, const floor_canvas_t *canvas) {
    (void)ctx;
    fatal_if(((listing_t *)model)->ids[row], "cell");
    canvas->text(canvas, 4, 6, canvas->width - 8, ((listing_t *)model)->ids[row], 0);
}

static uint64_t listing_tappable(void *ctx, void *model, uint64_t row) {
    (void)ctx; (void)model; (void)row;
    return 1;
}

static bool listing_action(void *ctx, void *model, uint64_t row, uint64_t item, const floor_action_sink_t *sink) {
    (void)ctx; (void)item;
    const listing_t *listing = model;
    fatal_if(listing->ids[row], "action");
#ifdef CRASH_IN_ACTION
    if (row + 1 == (uint64_t)listing->count) *(volatile int *)(uintptr_t)0 = 1;
#endif
    char url[64];
#ifdef ACTION_EMPTY_URL
    url[0] = 0;
#else
    snprintf(url, sizeof url, "app://listing/%s", listing->ids[row]);
#endif
    sink->jump(sink, url, "listing_tap");
    sink->param(sink, "id", listing->ids[row]);
    return true;
}

#ifdef WITH_SCHEMA
#define SCHEMA_JSON "{\"type\":\"object\",\"properties\":{\"items\":{\"type\":\"array\"," \
    "\"items\":{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}}}," \
    "\"required\":[\"items\"]}"
#else
#define SCHEMA_JSON NULL
#endif

static bool listing_init(const floor_host_t *host) {
    floor_row_type_t row = {
        .struct_size = sizeof row, .type_name = ROW_TYPE, .context = NULL,
        .height = {"heightForListingRow:width:", FLOOR_SIG_HEIGHT, (floor_fn_t)listing_height},
        .cell = {"cellForListingRow:canvas:", FLOOR_SIG_CELL, (floor_fn_t)listing_cell},
        .tappable = {"tappableItemsOfListingRow:", FLOOR_SIG_TAPPABLE, (floor_fn_t)listing_tappable},
        .action = {"actionForListingRow:item:", FLOOR_SIG_ACTION, (floor_fn_t)listing_action},
    };
    listing_row_type = host->register_row_type(host, &row);
    floor_floor_type_t floor = {
        .struct_size = sizeof floor, .type_name = FLOOR_TYPE, .context = NULL,
        .sample_json = "{\"type\":\"" FLOOR_TYPE "\",\"id\":\"listing\",\"items\":[{\"id\":\"a\"},{\"id\":\"b\"},{\"id\":\"c\"}]}",
        .decode = {"decodeListing:", FLOOR_SIG_DECODE, (floor_fn_t)listing_decode},
        .expand = {"expandListing:", FLOOR_SIG_EXPAND, (floor_fn_t)listing_expand},
        .destroy = {"destroyListing:", FLOOR_SIG_DESTROY, (floor_fn_t)listing_destroy},
        .validate = {"validateListing:", FLOOR_SIG_VALIDATE, (floor_fn_t)listing_validate},
        .extend = {"extendListing:with:", FLOOR_SIG_EXTEND, (floor_fn_t)listing_extend},
        .schema_json = SCHEMA_JSON,
    };
    host->register_floor_type(host, &floor);
    return true;
}

static const floor_plugin_descriptor_t descriptor = {
    .struct_size = sizeof descriptor, .abi_major = FLOOR_ABI_MAJOR, .abi_minor = FLOOR_ABI_MINOR,
    .id = PLUGIN_ID, .name = "Listing (C)", .version = "0.1.0", .init = listing_init,
};

const floor_plugin_descriptor_t *floor_plugin_entry(void) { return &descriptor; }
