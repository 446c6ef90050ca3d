/*
 * floor_abi/sinks.h: what the host hands a plugin's selectors to write into: the report (decode, validate,
 * extend), the row sink and its row flags (expand), the action sink (action) and the extend result (extend).
 * Each is host-owned and valid only during the call it is passed to (docs/ABI.md, "Ownership and lifetimes").
 * Part of floor_abi.h, which a plugin includes (its top comment explains the [tags]).
 */
#ifndef FLOOR_ABI_SINKS_H
#define FLOOR_ABI_SINKS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where decode, validate and extend report problems with the floor (docs/ABI.md, "Reports"). */
typedef struct floor_report floor_report_t;
struct floor_report {
    /* [data][during the call][host-owned] the host's; a plugin must not touch it */
    void *host_data;
    /* [call-thread][during decode|validate|extend][host-owned] a problem at json_path ("" the floor); strings copied */
    void (*error)(const floor_report_t *report, const char *json_path, const char *message);
};

/* Row flags, given to floor_row_sink_t.add (docs/ABI.md, "Rows"). */
#define FLOOR_ROW_HEADER 0x1u  /* the floor's header row */
#define FLOOR_ROW_STICKY 0x2u  /* pins to the top of the screen, a title or any row (docs/ABI.md, "Sticky rows") */
#define FLOOR_ROW_ITEM   0x4u  /* since 1.5: an item of the floor's collection, placed into its columns */

/* Where expand lists a floor's rows, in order: row i is the i-th call to add (docs/ABI.md, "Rows", "Extend"). */
typedef struct floor_row_sink floor_row_sink_t;
struct floor_row_sink {
    /* [data][during expand][host-owned] the host's; a plugin must not touch it */
    void *host_data;
    /* [call-thread][during expand][host-owned] the next row: a row type id this plugin registered, FLOOR_ROW_* flags */
    void (*add)(const floor_row_sink_t *sink, int32_t row_type_id, uint32_t flags);
    /* Since 1.2 (a plugin built against 1.2 or later may read them; a host that loaded it always has them): */
    /* [data][during expand][host-owned] rows held from the previous expand that keep may reuse: after extend, else 0 */
    uint64_t reusable;
    /* [call-thread][during expand, once, before any add][host-owned] rows 0..<count (<= reusable) stay as they were */
    void (*keep)(const floor_row_sink_t *sink, uint64_t count);
};

/* Where an action selector says what a tap does: jump once, then param each (docs/ABI.md, "Taps and actions"). */
typedef struct floor_action_sink floor_action_sink_t;
struct floor_action_sink {
    /* [data][during action][host-owned] the host's; a plugin must not touch it */
    void *host_data;
    /* [call-thread][during action, exactly once, first][host-owned] the tap's url (not NULL) and event id; copied */
    void (*jump)(const floor_action_sink_t *sink, const char *url, const char *event_id /* may be NULL */);
    /* [call-thread][during action, after jump][host-owned] one parameter of the jump, key and value not NULL; copied */
    void (*param)(const floor_action_sink_t *sink, const char *key, const char *value);
    /* Since 1.5 (a 1.5 plugin only meets a host that has them): jump and param with lengths, so a string holding
       U+0000 reaches the host whole (docs/ABI-1.5.md, part 5). Same rules as jump and param. */
    /* [call-thread][during action, exactly once, first][host-owned] event_id may be NULL (length 0); copied */
    void (*jump_n)(const floor_action_sink_t *sink, const char *url, uint64_t url_length, const char *event_id,
                   uint64_t event_id_length);
    /* [call-thread][during action, after jump][host-owned] one parameter, key and value not NULL; copied */
    void (*param_n)(const floor_action_sink_t *sink, const char *key, uint64_t key_length, const char *value,
                    uint64_t value_length);
};

/* What extend says about the floor's rows, so that only changed rows are measured again (docs/ABI.md, "Extend"). */
typedef struct floor_extend_result {
    /* [data][during extend][host-owned] written by extend: old rows at the start the new list keeps unchanged */
    uint64_t unchanged_leading;
    /* [data][during extend][host-owned] written by extend: old rows at the end the new list keeps unchanged */
    uint64_t unchanged_trailing;
} floor_extend_result_t;

#ifdef __cplusplus
}
#endif

#endif /* FLOOR_ABI_SINKS_H */
