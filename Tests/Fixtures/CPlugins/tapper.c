/*
 * A tappable floor plugin in plain C, for CheckCoverageTests: the "Tapper" floor,
 * {"type":"Tapper","id":"t","text":"..."}, one row with three tappable items, each with an action.
 * Its bugs are reached only by real page data (the sample's text names none), so the isolation scan
 * passes it and only calls a render makes find them: the text "crash:<selector>" writes through NULL in
 * that selector, "hang:<selector>" never returns from it, for <selector> one of cell, tappable, action
 * (the action fails on the last item only, so only a walk over every item finds it).
 *
 * Item frames and pages (ABI 1.5, docs/ABI.md "Item frames", "Paged rows"), for ItemFrameTests and
 * CarouselTests: the text "frames" makes the cell report item 0 twice (the second, at x 200, wins), item 1
 * far outside the cell (the host clips it to the cell), and item 7 (past the three items: not one); the
 * text "pages:N" makes the pages selector answer N (else 0, one page). Compile-time switches:
 *   ABI_1_4_STRUCTS       a row type as a 1.4 plugin compiles it: struct_size ends before `pages`, and the
 *                         cell never reports a frame (the host keeps 1.4's divide-by-width rule)
 *   BAD_PAGES_SIGNATURE   the pages selector registers the signature "Q(pp)" (the host refuses the row type)
 *   SAMPLE_TEXT=\"...\"   the sample's text (default "sample"): "frames" makes conform meet the bad frames
 *   JUMP_WITH_LENGTHS     the action jumps through ABI 1.5's jump_n and param_n with strings that hold U+0000
 *   PAGE_STRINGS          the floor's "text", "url" and "item" strings, their JSON escapes decoded (\u0000 too),
 *                         are what it draws and taps: with ABI_1_4_STRUCTS as a 1.4 plugin does (canvas text,
 *                         jump and param, NUL-terminated), else with ABI 1.5's lengths (text_block, jump_n,
 *                         param_n); every item jumps to "url" with the parameter "itemId" = "item"
 *   ABI_MINOR=N           the minor version the descriptor claims (default FLOOR_ABI_MINOR)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "floor_abi.h"

#define ITEMS 3
#ifndef SAMPLE_TEXT
#define SAMPLE_TEXT "sample"
#endif

typedef struct tapper {
    char text[128];
#ifdef PAGE_STRINGS
    size_t text_length, url_length, item_length;
    char url[128], item[64];
#endif
} tapper_t;

#ifndef ABI_MINOR
#define ABI_MINOR FLOOR_ABI_MINOR
#endif

#define FAIL_IF(model, stage) do { \
        if (strstr(((const tapper_t *)(model))->text, "crash:" stage)) *(volatile int *)(uintptr_t)0 = 1; \
        if (strstr(((const tapper_t *)(model))->text, "hang:" stage)) for (volatile int spin = 1; spin;) {} \
    } while (0)

static int32_t tapper_row_type = -1;

#ifdef PAGE_STRINGS
/* The string value of "key" in the floor, its escapes decoded (\uXXXX below U+0080 only: enough for a test),
 * into out (at most size - 1 bytes, then a NUL); its length, or 0 when absent. */
static size_t page_string(const char *json, uint64_t len, const char *key, char *out, size_t size) {
    char quoted[32];
    snprintf(quoted, sizeof quoted, "\"%s\":\"", key);
    size_t k = strlen(quoted), n = 0;
    for (uint64_t i = 0; i + k < len; i++) {
        if (memcmp(json + i, quoted, k) != 0) continue;
        for (uint64_t j = i + k; j < len && json[j] != '"' && n + 1 < size; j++) {
            char c = json[j];
            if (c == '\\' && j + 1 < len) {
                c = json[++j];
                if (c == 'u' && j + 4 < len) {
                    char hex[5] = {json[j + 1], json[j + 2], json[j + 3], json[j + 4], 0};
                    c = (char)strtol(hex, NULL, 16);
                    j += 4;
                }
            }
            out[n++] = c;
        }
        break;
    }
    out[n] = 0;
    return n;
}
#endif

static void *tapper_decode(void *ctx, const char *json, uint64_t len, const floor_report_t *report) {
    (void)ctx;
#ifdef PAGE_STRINGS
    tapper_t *strings = calloc(1, sizeof *strings);
    strings->text_length = page_string(json, len, "text", strings->text, sizeof strings->text);
    strings->url_length = page_string(json, len, "url", strings->url, sizeof strings->url);
    strings->item_length = page_string(json, len, "item", strings->item, sizeof strings->item);
    return strings;
#endif
    static const char key[] = "\"text\":\"";
    for (uint64_t i = 0; i + sizeof key - 1 < len; i++) {
        if (memcmp(json + i, key, sizeof key - 1) != 0) continue;
        const char *start = json + i + sizeof key - 1;
        const char *end = memchr(start, '"', (size_t)(json + len - start));
        if (!end) break;
        tapper_t *tapper = calloc(1, sizeof *tapper);
        size_t n = (size_t)(end - start) < sizeof tapper->text - 1 ? (size_t)(end - start) : sizeof tapper->text - 1;
        memcpy(tapper->text, start, n);
        return tapper;
    }
    report->error(report, "text", "a tapper needs a \"text\" string");
    return NULL;
}

static void tapper_expand(void *ctx, void *model, const floor_row_sink_t *sink) {
    (void)ctx; (void)model;
    sink->add(sink, tapper_row_type, 0);
}

static void tapper_destroy(void *ctx, void *model) { (void)ctx; free(model); }

static double tapper_height(void *ctx, void *model, uint64_t row, double width) {
    (void)ctx; (void)model; (void)row; (void)width;
    return 36;
}

static void tapper_cell(void *ctx, void *model, uint64_t row, const floor_canvas_t *canvas) {
    (void)ctx; (void)row;
    FAIL_IF(model, "cell");
#if defined(PAGE_STRINGS) && !defined(ABI_1_4_STRUCTS)
    const tapper_t *strings = model;
    canvas->text_block(canvas, 8, 12, canvas->width - 16, 1, strings->text, strings->text_length, 0);
#else
    canvas->text(canvas, 8, 12, canvas->width - 16, ((const tapper_t *)model)->text, 0);
#endif
#ifndef ABI_1_4_STRUCTS
    if (strstr(((const tapper_t *)model)->text, "frames")) {
        canvas->item_frame(canvas, 0, 0, 0, 50, 36);
        canvas->item_frame(canvas, 0, 200, 0, 100, 36);
        canvas->item_frame(canvas, 1, -50, -50, 100000, 100000);
        canvas->item_frame(canvas, 7, 0, 0, 10, 10);
    }
#endif
}

#ifndef ABI_1_4_STRUCTS
static uint64_t tapper_pages(void *ctx, void *model, uint64_t row) {
    (void)ctx; (void)row;
    const char *pages = strstr(((const tapper_t *)model)->text, "pages:");
    return pages ? strtoull(pages + 6, NULL, 10) : 0;
}
#endif

#ifdef ABI_1_4_STRUCTS
#define ROW_TYPE_SIZE offsetof(floor_row_type_t, pages)
#else
#define ROW_TYPE_SIZE sizeof(floor_row_type_t)
#endif
#ifdef BAD_PAGES_SIGNATURE
#define PAGES_SIGNATURE "Q(pp)"
#else
#define PAGES_SIGNATURE FLOOR_SIG_PAGES
#endif

static uint64_t tapper_tappable(void *ctx, void *model, uint64_t row) {
    (void)ctx; (void)row;
    FAIL_IF(model, "tappable");
    return ITEMS;
}

static bool tapper_action(void *ctx, void *model, uint64_t row, uint64_t item, const floor_action_sink_t *sink) {
    (void)ctx; (void)row;
    if (item == ITEMS - 1) FAIL_IF(model, "action");
#if defined(PAGE_STRINGS) && defined(ABI_1_4_STRUCTS)
    const tapper_t *strings = model;
    sink->jump(sink, strings->url, NULL);
    sink->param(sink, "itemId", strings->item);
#elif defined(PAGE_STRINGS)
    const tapper_t *strings = model;
    sink->jump_n(sink, strings->url, strings->url_length, NULL, 0);
    sink->param_n(sink, "itemId", 6, strings->item, strings->item_length);
#elif defined(JUMP_WITH_LENGTHS)
    static const char url[] = "app://product/1\0javascript:evil", key[] = "k\0x", value[] = "v\0y";
    sink->jump_n(sink, url, sizeof url - 1, "tap\0ev", 6);
    sink->param_n(sink, key, sizeof key - 1, value, sizeof value - 1);
#else
    sink->jump(sink, "app://tapper", NULL);
#endif
    return true;
}

static bool tapper_init(const floor_host_t *host) {
    floor_row_type_t row = {
        .struct_size = ROW_TYPE_SIZE, .type_name = "TapperRow", .context = NULL,
        .height = {"heightForTapperRow:width:", FLOOR_SIG_HEIGHT, (floor_fn_t)tapper_height},
        .cell = {"cellForTapperRow:canvas:", FLOOR_SIG_CELL, (floor_fn_t)tapper_cell},
        .tappable = {"tappableItemsOfTapperRow:", FLOOR_SIG_TAPPABLE, (floor_fn_t)tapper_tappable},
        .action = {"actionForTapperRow:item:", FLOOR_SIG_ACTION, (floor_fn_t)tapper_action},
#ifndef ABI_1_4_STRUCTS
        .pages = {"pagesOfTapperRow:", PAGES_SIGNATURE, (floor_fn_t)tapper_pages},
#endif
    };
    tapper_row_type = host->register_row_type(host, &row);
    floor_floor_type_t floor = {
        .struct_size = sizeof floor, .type_name = "Tapper", .context = NULL,
        .sample_json = "{\"type\":\"Tapper\",\"id\":\"tapper\",\"text\":\"" SAMPLE_TEXT "\"}",
        .decode = {"decodeTapper:", FLOOR_SIG_DECODE, (floor_fn_t)tapper_decode},
        .expand = {"expandTapper:", FLOOR_SIG_EXPAND, (floor_fn_t)tapper_expand},
        .destroy = {"destroyTapper:", FLOOR_SIG_DESTROY, (floor_fn_t)tapper_destroy},
    };
    host->register_floor_type(host, &floor);
    return true;
}

static const floor_plugin_descriptor_t descriptor = {
    .struct_size = sizeof descriptor, .abi_major = FLOOR_ABI_MAJOR, .abi_minor = ABI_MINOR,
    .id = "com.floorkit.test.tapper", .name = "Tapper (C)", .version = "0.1.0", .init = tapper_init,
};

const floor_plugin_descriptor_t *floor_plugin_entry(void) { return &descriptor; }
