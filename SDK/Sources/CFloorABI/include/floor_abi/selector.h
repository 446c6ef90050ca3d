/*
 * floor_abi/selector.h: selectors, the named and typed callables a plugin registers, and each slot's signature.
 * A selector carries its C signature in a short encoding, so the host checks it against the slot before it ever
 * calls it and can perform any selector generically, as `performSelector:` does in iOS (docs/ABI.md, "Selectors").
 * Part of floor_abi.h, which a plugin includes (its top comment explains the [tags]).
 */
#ifndef FLOOR_ABI_SELECTOR_H
#define FLOOR_ABI_SELECTOR_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Signature encoding: "<result>(<arguments>)", one letter a type.
 *   v void      b bool (C99 _Bool, one byte)
 *   i int32_t   u uint32_t   q int64_t   Q uint64_t (also size_t on LP64)
 *   d double    p pointer (opaque handle, struct pointer or const char *)
 * The slots (floor_abi/registration.h) and the C function each stands for:
 */
#define FLOOR_SIG_DECODE   "p(ppQp)"  /* void *decode(void *ctx, const char *json, uint64_t len, const floor_report_t *report) */
#define FLOOR_SIG_EXPAND   "v(ppp)"   /* void expand(void *ctx, void *model, const floor_row_sink_t *sink) */
#define FLOOR_SIG_DESTROY  "v(pp)"    /* void destroy(void *ctx, void *model) */
#define FLOOR_SIG_HEIGHT   "d(ppQd)"  /* double height(void *ctx, void *model, uint64_t row, double width) */
#define FLOOR_SIG_CELL     "v(ppQp)"  /* void cell(void *ctx, void *model, uint64_t row, const floor_canvas_t *canvas) */
/* Since 1.1, all optional: */
#define FLOOR_SIG_TAPPABLE "Q(ppQ)"   /* uint64_t tappable(void *ctx, void *model, uint64_t row): how many items a tap can hit */
#define FLOOR_SIG_ACTION   "b(ppQQp)" /* bool action(void *ctx, void *model, uint64_t row, uint64_t item, const floor_action_sink_t *sink) */
#define FLOOR_SIG_VALIDATE "b(ppp)"   /* bool validate(void *ctx, void *model, const floor_report_t *report) */
#define FLOOR_SIG_EXTEND   "v(ppppp)" /* void extend(void *ctx, void *model, void *next, const floor_report_t *report, floor_extend_result_t *result) */

/* Since 1.5, optional: */
#define FLOOR_SIG_PAGES    "Q(ppQ)"   /* uint64_t pages(void *ctx, void *model, uint64_t row): horizontal pages of the row */

/* Any function pointer; the selector's signature says how to call it. */
typedef void (*floor_fn_t)(void);

/* A named, typed callable; a selector with fn == NULL is "not provided" (docs/ABI.md, "Selectors"). */
typedef struct floor_selector {
    /* [data][for the process][plugin-owned] e.g. "tableView:cellForProductCard:"; shown in messages */
    const char *name;
    /* [data][for the process][plugin-owned] the slot's FLOOR_SIG_*, e.g. FLOOR_SIG_HEIGHT; a mismatch is refused */
    const char *signature;
    /* [host-thread][after init][plugin-owned] the function, called as `signature` says; NULL: not provided */
    floor_fn_t fn;
} floor_selector_t;

#ifdef __cplusplus
}
#endif

#endif /* FLOOR_ABI_SELECTOR_H */
