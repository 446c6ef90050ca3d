/*
 * A floor plugin in plain C that breaks one rule of floor_abi.h at a time, for the tests of how the host
 * enforces the contract (ContractEnforcementTests, ControlCharacterTests). The "Contract" floor is
 * {"type":"Contract","id":"c","text":"...","rows":N}: N rows (default 1) of type ContractRow, each drawing
 * `text`, with one tappable item whose action jumps to "floorkit://contract". Next pages extend it (rows
 * are added). Macros:
 *   PLUGIN_ID, FLOOR_TYPE, ROW_TYPE   identity (two libraries with one FLOOR_TYPE clash)
 *   SAMPLE_ROWS                       rows of the sample floor (conform), default 1
 *   FORGE_OUTPUT                      log, draw and name an image with newline + ESC + "error: ..."
 *   CONTROL_IN_ROW_TYPE_NAME          a row type name with ESC in it
 *   CONTROL_IN_FLOOR_TYPE_NAME        a floor type name with a newline in it
 *   DECODE_ERROR_WITH_MODEL           decode reports an error and still returns a model
 *   LATE_REGISTRATION                 decode registers a row type (after init returned)
 *   EXTEND_CLAIM=N                    extend claims N unchanged leading rows (default: the old row count)
 *   TAPPABLE_UINT64_MAX               tappable returns UINT64_MAX
 *   PARAM_BEFORE_JUMP, JUMP_NULL, JUMP_TWICE   action sink misuse
 *   INIT_GIVES_UP_ON_REFUSAL          registers a row type with a wrong signature, and returns false when refused
 *   LOG_IN_DECODE                     logs a line on every decode (a correct plugin may)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "floor_abi.h"

#ifndef PLUGIN_ID
#define PLUGIN_ID "com.floorkit.test.contract"
#endif
#ifndef FLOOR_TYPE
#ifdef CONTROL_IN_FLOOR_TYPE_NAME
#define FLOOR_TYPE "Contract\nerror: forged"
#else
#define FLOOR_TYPE "Contract"
#endif
#endif
#ifndef ROW_TYPE
#ifdef CONTROL_IN_ROW_TYPE_NAME
#define ROW_TYPE "ContractRow\033[31m"
#else
#define ROW_TYPE "ContractRow"
#endif
#endif
#ifndef SAMPLE_ROWS
#define SAMPLE_ROWS "1"
#endif

#define FORGED "\n\033[31merror: forged by a plugin\033[0m"

typedef struct contract { char text[64]; uint64_t rows; } contract_t;

static const floor_host_t *the_host;
static int32_t row_type = -1;

static double contract_height(void *ctx, void *model, uint64_t row, double width);
static void contract_cell(void *ctx, void *model, uint64_t row, const floor_canvas_t *canvas);

/* Finds "key": in the floor object and returns where its value starts, or NULL. No escapes, no nesting. */
static const char *find(const char *json, uint64_t len, const char *key) {
    size_t k = strlen(key);
    for (uint64_t i = 0; i + k + 3 < len; i++) {
        if (json[i] == '"' && memcmp(json + i + 1, key, k) == 0 && json[i + 1 + k] == '"' && json[i + 2 + k] == ':')
            return json + i + 3 + k;
    }
    return NULL;
}

static void *contract_decode(void *ctx, const char *json, uint64_t len, const floor_report_t *report) {
    (void)ctx;
#ifdef LOG_IN_DECODE
    the_host->log(the_host, FLOOR_LOG_INFO, "decoding a contract floor");
#endif
#ifdef LATE_REGISTRATION
    floor_row_type_t late = {
        .struct_size = sizeof late, .type_name = "LateRow",
        .height = {"heightForLateRow:", FLOOR_SIG_HEIGHT, (floor_fn_t)contract_height},
        .cell = {"cellForLateRow:", FLOOR_SIG_CELL, (floor_fn_t)contract_cell},
    };
    the_host->register_row_type(the_host, &late);
#endif
    const char *text = find(json, len, "text");
    if (!text || *text != '"') {
        report->error(report, "text", "a contract floor needs a \"text\" string");
        return NULL;
    }
    const char *end = memchr(text + 1, '"', (size_t)(json + len - text - 1));
    if (!end) {
        report->error(report, "text", "unterminated string");
        return NULL;
    }
    contract_t *model = calloc(1, sizeof *model);
    size_t n = (size_t)(end - text - 1) < sizeof model->text - 1 ? (size_t)(end - text - 1) : sizeof model->text - 1;
    memcpy(model->text, text + 1, n);
    model->rows = 1;
    const char *rows = find(json, len, "rows");
    if (rows) model->rows = strtoull(rows, NULL, 10);
#ifdef DECODE_ERROR_WITH_MODEL
    report->error(report, "text", "this text is not acceptable");
#endif
    return model;
}

static void contract_expand(void *ctx, void *model, const floor_row_sink_t *sink) {
    (void)ctx;
    for (uint64_t i = 0; i < ((contract_t *)model)->rows; i++) sink->add(sink, row_type, 0);
}

static void contract_destroy(void *ctx, void *model) { (void)ctx; free(model); }

static void contract_extend(void *ctx, void *model, void *next, const floor_report_t *report, floor_extend_result_t *result) {
    (void)ctx; (void)report;
    contract_t *m = model;
#ifdef EXTEND_CLAIM
    result->unchanged_leading = EXTEND_CLAIM;
#else
    result->unchanged_leading = m->rows;
#endif
    result->unchanged_trailing = 0;
    m->rows += ((contract_t *)next)->rows;
}

static double contract_height(void *ctx, void *model, uint64_t row, double width) {
    (void)ctx; (void)model; (void)row; (void)width;
    return 24;
}

static void contract_cell(void *ctx, void *model, uint64_t row, const floor_canvas_t *canvas) {
    (void)ctx; (void)row;
#ifdef FORGE_OUTPUT
    canvas->text(canvas, 0, 0, canvas->width, "drawn" FORGED, 0);
    canvas->image(canvas, 0, 12, canvas->width, 12, "img/x" FORGED ".png");
    (void)model;
#else
    canvas->text(canvas, 0, 0, canvas->width, ((contract_t *)model)->text, 0);
#endif
}

static uint64_t contract_tappable(void *ctx, void *model, uint64_t row) {
    (void)ctx; (void)model; (void)row;
#ifdef TAPPABLE_UINT64_MAX
    return UINT64_MAX;
#else
    return 1;
#endif
}

static bool contract_action(void *ctx, void *model, uint64_t row, uint64_t item, const floor_action_sink_t *sink) {
    (void)ctx; (void)model; (void)row; (void)item;
#ifdef PARAM_BEFORE_JUMP
    sink->param(sink, "k", "v");
#endif
#ifdef JUMP_NULL
    sink->jump(sink, NULL, NULL);
#else
    sink->jump(sink, "floorkit://contract", NULL);
#endif
#ifdef JUMP_TWICE
    sink->jump(sink, "floorkit://again", NULL);
#endif
    sink->param(sink, "k", "v");
    return true;
}

static bool contract_init(const floor_host_t *host) {
    the_host = host;
#ifdef FORGE_OUTPUT
    host->log(host, FLOOR_LOG_INFO, "hello" FORGED);
#endif
#ifdef INIT_GIVES_UP_ON_REFUSAL
    floor_row_type_t wrong = {
        .struct_size = sizeof wrong, .type_name = "WrongRow",
        .height = {"heightForWrongRow:", "i(ppQd)", (floor_fn_t)contract_height},
        .cell = {"cellForWrongRow:", FLOOR_SIG_CELL, (floor_fn_t)contract_cell},
    };
    if (host->register_row_type(host, &wrong) < 0) return false;
#endif
    floor_row_type_t row = {
        .struct_size = sizeof row, .type_name = ROW_TYPE,
        .height = {"heightForContractRow:", FLOOR_SIG_HEIGHT, (floor_fn_t)contract_height},
        .cell = {"cellForContractRow:", FLOOR_SIG_CELL, (floor_fn_t)contract_cell},
        .tappable = {"tappableItemsOfContractRow:", FLOOR_SIG_TAPPABLE, (floor_fn_t)contract_tappable},
        .action = {"actionForContractRow:", FLOOR_SIG_ACTION, (floor_fn_t)contract_action},
    };
    row_type = host->register_row_type(host, &row);
    floor_floor_type_t floor = {
        .struct_size = sizeof floor, .type_name = FLOOR_TYPE,
        .sample_json = "{\"type\":\"Contract\",\"id\":\"c\",\"text\":\"sample\",\"rows\":" SAMPLE_ROWS "}",
        .decode = {"decodeContract:", FLOOR_SIG_DECODE, (floor_fn_t)contract_decode},
        .expand = {"expandContract:", FLOOR_SIG_EXPAND, (floor_fn_t)contract_expand},
        .destroy = {"destroyContract:", FLOOR_SIG_DESTROY, (floor_fn_t)contract_destroy},
        .extend = {"extendContract:", FLOOR_SIG_EXTEND, (floor_fn_t)contract_extend},
    };
    host->register_floor_type(host, &floor);
    return true;
}

static const floor_plugin_descriptor_t descriptor = {
    .struct_size = sizeof descriptor, .abi_major = FLOOR_ABI_MAJOR, .abi_minor = FLOOR_ABI_MINOR,
    .id = PLUGIN_ID, .name = "Contract (C)", .version = "0.1.0", .init = contract_init,
};

const floor_plugin_descriptor_t *floor_plugin_entry(void) { return &descriptor; }
