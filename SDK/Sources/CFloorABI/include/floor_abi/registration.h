/*
 * floor_abi/registration.h: the row types and floor types a plugin registers during init (floor_host_t in
 * floor_abi/host.h), and the bounds on what their selectors answer.
 * Part of floor_abi.h, which a plugin includes (its top comment explains the [tags]).
 */
#ifndef FLOOR_ABI_REGISTRATION_H
#define FLOOR_ABI_REGISTRATION_H

#include <stdint.h>

#include "selector.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most items a row can offer to taps; a larger tappable answer gives it none (docs/ABI.md, "Taps and actions"). */
#define FLOOR_TAPPABLE_MAX 4096u

/* The tallest row, in points: a finite height above this is clamped and reported; since 1.5 a height that is not
   finite or is negative (NaN, inf, -inf, -1) makes the row a placeholder naming the plugin, the row type and the
   value, an error in every output (docs/ABI.md, "Heights"). */
#define FLOOR_MAX_ROW_HEIGHT 10000.0

/* Since 1.5. The most horizontal pages a row can have; a larger pages answer leaves the row unpaged. */
#define FLOOR_PAGES_MAX 64u

/* Since 1.5. The layouts of floor_floor_type_t.layouts, a bit set (docs/ABI-1.5.md, part 4). */
#define FLOOR_LAYOUT_LIST      0x1u /* full-width rows, one under another (every 1.4 floor) */
#define FLOOR_LAYOUT_GRID      0x2u /* equal columns, left to right, each line as tall as its tallest item */
#define FLOOR_LAYOUT_WATERFALL 0x4u /* each item into the shortest column, the left one on a tie */
/* The most columns a collection floor has. */
#define FLOOR_COLUMNS_MAX 6u

/*
 * A row model type, the unit of dispatch: the host asks it for row i's height and cell, as a table view asks
 * its data source (`tableView:heightForRowAtIndexPath:`, `tableView:cellForRowAtIndexPath:`); docs/ABI.md,
 * "Row types" and "Type names".
 */
typedef struct floor_row_type {
    /* [data][at registration][plugin-owned] sizeof(floor_row_type_t) as the plugin compiled it */
    uint32_t struct_size;
    /* [data][for the process][plugin-owned] e.g. "ProductCard"; unique within this plugin (since 1.5: another
       plugin may have a row type of the same name; a floor's rows resolve within the plugin that expanded it) */
    const char *type_name;
    /* [data][for the process][plugin-owned] passed back as `ctx` to every selector below */
    void *context;
    /* [host-thread][after init][plugin-owned] FLOOR_SIG_HEIGHT: finite, 0 to FLOOR_MAX_ROW_HEIGHT; same inputs, same
       result (any other answer: see FLOOR_MAX_ROW_HEIGHT) */
    floor_selector_t height;
    /* [host-thread][after init][plugin-owned] FLOOR_SIG_CELL: draws the row; must stay inside the canvas */
    floor_selector_t cell;
    /* Since 1.1. Optional, both or neither (fn == NULL): rows of this type are not tappable. */
    /* [host-thread][after init][plugin-owned] FLOOR_SIG_TAPPABLE: items a tap can hit, 0..FLOOR_TAPPABLE_MAX */
    floor_selector_t tappable;
    /* [host-thread][after init][plugin-owned] FLOOR_SIG_ACTION: the action for item < tappable; false when none */
    floor_selector_t action;
    /* Since 1.5. Optional (fn == NULL: one page). */
    /* [host-thread][after init][plugin-owned] FLOOR_SIG_PAGES: horizontal pages, 0..FLOOR_PAGES_MAX */
    floor_selector_t pages;
} floor_row_type_t;

/*
 * A floor type: what a page's floor object names in its "type" (or "pattern") field. decode turns the floor's
 * JSON object into a plugin-owned model; expand lists its rows; destroy frees the model (docs/ABI.md,
 * "Floor types", "Decode", "Validate", "Extend", "Schema").
 */
typedef struct floor_floor_type {
    /* [data][at registration][plugin-owned] sizeof(floor_floor_type_t) as the plugin compiled it */
    uint32_t struct_size;
    /* [data][for the process][plugin-owned] e.g. "ProductFeed"; unique across all loaded plugins: when two register
       one, the one trusted first keeps it (pinned in plugins.lock, else known to the scan cache, else first by
       path) and the other's registration is refused (docs/ABI.md, "Type names") */
    const char *type_name;
    /* [data][for the process][plugin-owned] passed back as `ctx` to every selector below */
    void *context;
    /* [data][for the process][plugin-owned] a floor object this type decodes, for `floorhost conform`; may be NULL */
    const char *sample_json;
    /* [host-thread][after init][plugin-owned] FLOOR_SIG_DECODE: the floor's JSON to a model; NULL after report->error */
    floor_selector_t decode;
    /* [host-thread][after init][plugin-owned] FLOOR_SIG_EXPAND: lists the model's rows; again after it changes */
    floor_selector_t expand;
    /* [host-thread][after init][plugin-owned] FLOOR_SIG_DESTROY: frees a model, once per model decode returned */
    floor_selector_t destroy;
    /* Since 1.1. Optional (fn == NULL): every decoded floor is valid / the floor cannot be continued by a next page. */
    /* [host-thread][after init][plugin-owned] FLOOR_SIG_VALIDATE: data checks, once, right after decode */
    floor_selector_t validate;
    /* [host-thread][after init][plugin-owned] FLOOR_SIG_EXTEND: appends a next page's floor with the same id */
    floor_selector_t extend;
    /* Since 1.3. Optional (NULL: no schema, no field checked; a 1.1 or 1.2 plugin's struct ends before it). */
    /* [data][for the process][plugin-owned] a JSON Schema (draft 2020-12) of the floor object */
    const char *schema_json;
    /* Since 1.5 (docs/ABI-1.5.md, part 4; a 1.4 plugin's struct ends before them: list only). */
    /* [data][for the process][plugin-owned] FLOOR_LAYOUT_* this floor supports; 0 is list only */
    uint32_t layouts;
    /* [data][for the process][plugin-owned] one FLOOR_LAYOUT_* bit: the layout when the page names none */
    uint32_t default_layout;
    /* [data][for the process][plugin-owned] 1..FLOOR_COLUMNS_MAX: the columns when the page names none */
    uint32_t default_columns;
    /* [data][for the process][plugin-owned] points between columns */
    double column_gap;
    /* [data][for the process][plugin-owned] points between lines of items (and an item and the one under it) */
    double line_gap;
    /* [data][for the process][plugin-owned] points left and right of the item area */
    double inset;
} floor_floor_type_t;

#ifdef __cplusplus
}
#endif

#endif /* FLOOR_ABI_REGISTRATION_H */
