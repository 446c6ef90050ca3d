/*
 * floor_abi.h: the whole contract between the FloorKit host (floorhost) and a floor plugin.
 *
 * A floor plugin is a shared library that exports one function, `floor_plugin_entry`. The host opens
 * it with RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE (a plugin is never unloaded), calls the entry, checks the
 * descriptor's ABI version, then calls `init` with a host table through which the plugin registers its
 * floor types and row types. Only C structs, C function pointers, UTF-8 strings and opaque handles cross
 * this boundary: a plugin may be written in any language that can export a C function.
 *
 * Versioning: FLOOR_ABI_MAJOR changes break the contract; the host refuses a plugin whose major differs.
 * FLOOR_ABI_MINOR changes only add: fields appended to structs (every growable struct starts with
 * `struct_size`, so each side reads only what the other wrote) and new optional selectors. The host
 * refuses a plugin whose minor is newer than its own.
 *
 * Threading: the host calls every plugin function from one thread at a time. A plugin needs no locks.
 * The host's own functions (the host table's register_* and log, every sink and the canvas) may be called
 * only on the thread the host is calling the plugin on, during that call (init included): they are not
 * thread-safe. A plugin that runs threads of its own hands their messages back to a host call to log them.
 * Process: a plugin shares the host's process and must leave its state alone. What a plugin writes to
 * stdout goes to the host's stderr (descriptor 1 points there; the host writes its output through its
 * own copy); the host changes the working directory back after `init` and names a plugin that moved it;
 * a plugin that ends the process (exit, _exit, raise) inside a call fails on that floor like a crash.
 * Lifetime: a loaded library belongs to one host and `init` is called once; the plugin may keep what the
 * host returned (row type ids, the host table) in globals.
 *
 * Selectors: every callable a plugin registers is a floor_selector_t: a name (for messages and for the
 * generic invoker), a signature in the short type encoding below, and the function pointer. The host
 * checks each signature against the FLOOR_SIG_* constant for that slot and refuses the registration on a
 * mismatch, naming both encodings. Because the signature travels with the function, the host can also
 * perform any selector generically (through libffi), which is what `performSelector:` did in iOS.
 *
 * Text: every string a plugin supplies (type names, log and report messages, drawn text, image sources)
 * is printed with control characters escaped as \uXXXX (C0 including newline and tab, DEL, C1, and the
 * bidi controls U+202A-202E and U+2066-2069): a plugin cannot start a line or colour the host's output.
 */
#ifndef FLOOR_ABI_H
#define FLOOR_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FLOOR_ABI_MAJOR 1
#define FLOOR_ABI_MINOR 4  /* 1.1 added the optional action, validate and extend selectors; 1.2 the row sink's keep;
                              1.3 the floor type's schema_json; 1.4 text measuring (canvas and host table), the
                              canvas's fill and FLOOR_TEXT_STRIKE */

/* The one symbol a plugin exports. Returns a descriptor that stays valid for the life of the process. */
#define FLOOR_PLUGIN_ENTRY_SYMBOL "floor_plugin_entry"

/*
 * Signature encoding: "<result>(<arguments>)", one letter a type.
 *   v void      b bool (C99 _Bool, one byte)
 *   i int32_t   u uint32_t   q int64_t   Q uint64_t (also size_t on LP64)
 *   d double    p pointer (opaque handle, struct pointer or const char *)
 */
#define FLOOR_SIG_DECODE   "p(ppQp)"  /* void *decode(void *ctx, const char *json, uint64_t len, const floor_report_t *report) */
#define FLOOR_SIG_EXPAND   "v(ppp)"   /* void expand(void *ctx, void *model, const floor_row_sink_t *sink) */
#define FLOOR_SIG_DESTROY  "v(pp)"    /* void destroy(void *ctx, void *model) */
#define FLOOR_SIG_HEIGHT   "d(ppQd)"  /* double height(void *ctx, void *model, uint64_t row, double width) */
#define FLOOR_SIG_CELL     "v(ppQp)"  /* void cell(void *ctx, void *model, uint64_t row, const floor_canvas_t *canvas) */
/* Since 1.1, all optional: */
#define FLOOR_SIG_TAPPABLE "Q(ppQ)"   /* uint64_t tappable(void *ctx, void *model, uint64_t row): how many items a tap can hit */
/* The most items a row can offer to taps. A tappable selector answering more (UINT64_MAX is a C `-1`) gives
 * its row no tappable items, with a warning naming the plugin, once per row type. */
#define FLOOR_TAPPABLE_MAX 4096u
#define FLOOR_SIG_ACTION   "b(ppQQp)" /* bool action(void *ctx, void *model, uint64_t row, uint64_t item, const floor_action_sink_t *sink) */
#define FLOOR_SIG_VALIDATE "b(ppp)"   /* bool validate(void *ctx, void *model, const floor_report_t *report) */
#define FLOOR_SIG_EXTEND   "v(ppppp)" /* void extend(void *ctx, void *model, void *next, const floor_report_t *report, floor_extend_result_t *result) */

/*
 * The tallest row the host lays out, in points (about a dozen phone screens). A height calculator must
 * return a finite height from 0 to FLOOR_MAX_ROW_HEIGHT; so must a floor's margins. The host clamps
 * anything else (NaN and negative heights become 0, larger ones FLOOR_MAX_ROW_HEIGHT) and reports each
 * floor and row type it clamped, naming the plugin and the value; `floorhost check` counts that as a
 * problem. With the bound, a page's height, and every cost that depends on it (text output, scrolling),
 * is proportional to its rows.
 */
#define FLOOR_MAX_ROW_HEIGHT 10000.0

/* Any function pointer; the selector's signature says how to call it. */
typedef void (*floor_fn_t)(void);

/* A named, typed callable. All three fields are owned by the plugin and must stay valid for the life of
 * the process (string literals or leaked allocations). A selector with fn == NULL is "not provided". */
typedef struct floor_selector {
    const char *name;       /* e.g. "tableView:cellForProductCard:"; shown in messages */
    const char *signature;  /* e.g. FLOOR_SIG_HEIGHT */
    floor_fn_t fn;
} floor_selector_t;

typedef enum floor_log_level {
    FLOOR_LOG_INFO = 0,
    FLOOR_LOG_WARNING = 1,
    FLOOR_LOG_ERROR = 2,
} floor_log_level_t;

/* ---------------------------------------------------------------------------------------------------
 * Host-provided sinks. Each is owned by the host and valid only during the call it is passed to.
 * ------------------------------------------------------------------------------------------------- */

/* Where decode reports why it refused a floor (validate and extend use it too). A decoder that calls
 * `error` must return NULL: a model returned after an error is destroyed by the host, the floor is left
 * out, and an error line names the plugin and its decoder (the reported errors are shown as warnings).
 * json_path is relative to the floor object, in the form
 * "items[2].price" ("" for the floor itself); the host prefixes the floor's own path. Both strings are
 * copied before the call returns. */
typedef struct floor_report floor_report_t;
struct floor_report {
    void *host_data;
    void (*error)(const floor_report_t *report, const char *json_path, const char *message);
};

/* Row flags, given to floor_row_sink_t.add. */
#define FLOOR_ROW_HEADER 0x1u  /* the floor's header row */
#define FLOOR_ROW_STICKY 0x2u  /* the row pins to the top of the screen: a title header or any other row */
/* FLOOR_ROW_STICKY, on any row a floor lists (with or without FLOOR_ROW_HEADER; e.g. a countdown strip
 * below a banner): once the row has scrolled above the top of the screen it is drawn pinned there while
 * the rows of its floor below it scroll under it; the end of its floor pushes it up as the floor leaves
 * the screen (it never covers the next floor's rows, as a table's section header never covers the next
 * section). The next sticky row below it (of the same floor or a later one) pushes it up as it arrives and
 * then is pinned instead. One rule for headers and other rows; every front end (text, json `pinned`, the terminal view,
 * the html preview) shows the same pinned row. The flag's value is unchanged since 1.0; hosts before this
 * one honoured it only with FLOOR_ROW_HEADER (and only on a floor's first header), so a plugin that needs
 * its own sticky row on an older host gets a row that scrolls normally, never an error. */

/* Where expand lists a floor's rows, in order. Row i of the floor is the i-th call to add. The row type
 * id is one this same plugin got back from register_row_type; the host rejects any other with a
 * diagnostic (a row type's selectors only understand their own plugin's models). */
typedef struct floor_row_sink floor_row_sink_t;
struct floor_row_sink {
    void *host_data;
    void (*add)(const floor_row_sink_t *sink, int32_t row_type_id, uint32_t flags);
    /* Since 1.2 (host-provided, so a plugin built against 1.2 may read them; a 1.1 plugin never does).
     * When the host calls expand right after extend, `reusable` is how many leading rows it still holds
     * from the previous expand (the extend result's unchanged_leading, at most the old row count); else 0.
     * expand may then call keep(sink, n) once, before any add, with n <= reusable: rows 0..<n stay as they
     * were and the next add is row n. A floor that a chain of next pages keeps extending then lists only
     * the rows that changed, and the chain costs O(rows added) per page instead of O(rows in the floor).
     * A keep call that breaks these rules is ignored (the host lists the call in a diagnostic). */
    uint64_t reusable;
    void (*keep)(const floor_row_sink_t *sink, uint64_t count);
};

/* Where an action selector describes what a tap does (the seed's TemplateAction): call `jump` exactly once,
 * with a non-NULL url, then `param` for each parameter (non-NULL key and value). The host handles every
 * action in one place. Strings are copied. An action that calls `param` before `jump`, `jump` twice or with
 * NULL, or `param` with NULL, is refused: the tap does nothing and its message names the plugin and the
 * misuse. */
typedef struct floor_action_sink floor_action_sink_t;
struct floor_action_sink {
    void *host_data;
    void (*jump)(const floor_action_sink_t *sink, const char *url, const char *event_id /* may be NULL */);
    void (*param)(const floor_action_sink_t *sink, const char *key, const char *value);
};

/* What extend tells the host about the floor's rows, so that only changed rows are measured again.
 * After extend the host calls expand; the new row list must be the old one with rows inserted or
 * changed only between the first `unchanged_leading` and the last `unchanged_trailing` old rows. The two
 * together may not exceed the smaller of the old and the new row count: a claim past that is not trusted,
 * the whole floor is measured again, and a warning names the plugin and both counts. */
typedef struct floor_extend_result {
    uint64_t unchanged_leading;
    uint64_t unchanged_trailing;
} floor_extend_result_t;

/* Text styles, a bit set, for floor_canvas_t.text. A backend may ignore any of them. */
#define FLOOR_TEXT_BOLD   0x1u
#define FLOOR_TEXT_MUTED  0x2u
#define FLOOR_TEXT_ACCENT 0x4u  /* prices, highlights */
#define FLOOR_TEXT_CENTER 0x8u  /* center within max_width instead of starting at x */
/* Since 1.4. A line through the text (an old price). Every 1.4 backend shows it: the text backend with
 * SGR 9 when styled and U+0336 after each character when plain, JSON as "strike":true, HTML with CSS
 * line-through. A 1.3 host ignores the bit (as it ignores any unknown style bit): draw nothing that is
 * wrong without the line (the SDK's `Canvas.supportsStrike` says whether the host knows it). */
#define FLOOR_TEXT_STRIKE 0x10u

/* Since 1.4. The tones of floor_canvas_t.fill; a backend shows an unknown tone as FLOOR_TONE_SUBTLE. */
#define FLOOR_TONE_SUBTLE 0u  /* a light background behind a card or a group (text: light shade) */
#define FLOOR_TONE_MUTED  1u  /* grey: a placeholder, a disabled area (text: medium shade) */
#define FLOOR_TONE_ACCENT 2u  /* the price colour: a badge, a sale tag (text: dark shade, red when styled) */

/*
 * The surface a cell draws into, implemented by each output backend (text, JSON, HTML). Coordinates are
 * points relative to the cell's top-left corner; the cell is `width` x `height` points. Drawing outside
 * the bounds is clipped by the host and counts as a conformance failure. Strings are UTF-8 and copied
 * before the call returns. Valid only during the cell call.
 *
 * Text metrics: a line of text is 12 points tall in every backend and `y` is its top (the line occupies
 * y to y + 12 and its glyphs stay inside it, so lines 12 points apart never touch; the HTML backend places
 * it with CSS `top: y` in a 12 px high box). Widths: lay text out at 5 points a character and 10 for a
 * double-width one (CJK), which is exactly what the text backend draws (one terminal column per 5 points;
 * x is rounded to the nearest column, y down to its 12-point line, so text at y = 12 is the cell's second
 * line); the HTML backend uses proportional fonts at 9.5 px (about 5 px a character on average) and cuts
 * at max_width like the others.
 *
 * Measuring (since 1.4): measure_text, here and on the host table, returns that layout width: 5 points a
 * display column of the text backend (control characters count as the \uXXXX escape they are drawn as),
 * whatever the backend, so a height computed from it holds in every output. A plugin never sees a
 * backend-specific width: heights are cached per row and shared by every output.
 */
typedef struct floor_canvas floor_canvas_t;
struct floor_canvas {
    uint32_t struct_size;
    void *host_data;
    double width;
    double height;
    /* One line of text starting at (x, y), cut to max_width points. */
    void (*text)(const floor_canvas_t *canvas, double x, double y, double max_width, const char *utf8,
                 uint32_t style);
    /* An image placeholder: the backend draws a frame and names `source` (URL or asset name). */
    void (*image)(const floor_canvas_t *canvas, double x, double y, double w, double h, const char *source);
    /* A frame (w, h > 0) or a rule (h == 0). */
    void (*box)(const floor_canvas_t *canvas, double x, double y, double w, double h);
    /* Since 1.4 (host-provided: a plugin built against 1.4 reads them only when struct_size >=
     * offsetof(floor_canvas_t, fill) + sizeof fill; a 1.3 host's canvas ends before them). */
    /* The width of one line of `utf8` in `style`, in points (see Measuring above); utf8 NULL is 0. Draws
     * nothing. Same text and style, same result, in every backend and call. */
    double (*measure_text)(const floor_canvas_t *canvas, const char *utf8, uint32_t style);
    /* A filled rectangle (w, h > 0) in one of the FLOOR_TONE_* tones, drawn under what the cell draws after
     * it. Bounds as for box; a fill with w or h <= 0 draws nothing. */
    void (*fill)(const floor_canvas_t *canvas, double x, double y, double w, double h, uint32_t tone);
};

/* ---------------------------------------------------------------------------------------------------
 * What a plugin registers.
 * ------------------------------------------------------------------------------------------------- */

/*
 * A row model type: the unit of dispatch. Every row the host lays out has one, and the host calls its
 * height calculator and cell selector with the floor model that produced the row and the row's index
 * within that floor. Names are unique across all loaded plugins.
 *
 * Type names (row and floor) are refused when they contain a control character (see Text above). A name
 * two libraries register belongs to neither, whichever loaded first: both claims are withdrawn, one error
 * names both files, rows of a withdrawn row type are left out and floors of a withdrawn floor type become
 * placeholders that say so. A plugin registering its own name twice keeps the first.
 */
typedef struct floor_row_type {
    uint32_t struct_size;       /* sizeof(floor_row_type_t) as the plugin compiled it */
    const char *type_name;      /* e.g. "ProductCard"; plugin-owned, valid for the process */
    void *context;              /* passed back as `ctx` to every selector below; plugin-owned */
    floor_selector_t height;    /* FLOOR_SIG_HEIGHT: 0 to FLOOR_MAX_ROW_HEIGHT, same inputs -> same result */
    floor_selector_t cell;      /* FLOOR_SIG_CELL: draws the row; must stay inside the canvas */
    /* Since 1.1. Optional (fn == NULL): rows of this type are not tappable. */
    floor_selector_t tappable;  /* FLOOR_SIG_TAPPABLE: items in the row a tap can hit, 0..FLOOR_TAPPABLE_MAX */
    floor_selector_t action;    /* FLOOR_SIG_ACTION: the action for item < tappable; false when none */
} floor_row_type_t;

/*
 * A floor type: what a page's floor object names in its "type" (or "pattern") field. decode turns the
 * floor's JSON object into a plugin-owned model; expand lists its rows; destroy frees the model.
 */
typedef struct floor_floor_type {
    uint32_t struct_size;       /* sizeof(floor_floor_type_t) as the plugin compiled it */
    const char *type_name;      /* e.g. "ProductFeed" */
    void *context;              /* passed back as `ctx` to every selector below */
    const char *sample_json;    /* a floor object this type decodes; used by `floorhost conform`. May be NULL. */
    floor_selector_t decode;    /* FLOOR_SIG_DECODE: NULL (after report->error) when the JSON is unusable.
                                   `json` is the floor object, not NUL-terminated, valid during the call:
                                   exactly the bytes of the page from its `{` to its `}`, as the page has them
                                   (whitespace and escapes untouched, already checked to be valid UTF-8 JSON,
                                   nesting at most 512 deep), `len` bytes. It holds every field of the floor,
                                   `type`/`pattern` and `id` too; a key may appear twice (the host warns; use
                                   the last). Everything the page put in the floor is the plugin's to read:
                                   the host does nothing with `header` and `margin` (the Swift SDK decodes and
                                   expands them for its plugins; a C plugin that wants a title row or spacing
                                   reads them itself and lists the rows, FLOOR_ROW_HEADER marking a title row,
                                   and declares them in schema_json). */
    floor_selector_t expand;    /* FLOOR_SIG_EXPAND: may be called again after the model changes */
    floor_selector_t destroy;   /* FLOOR_SIG_DESTROY: called once per model decode returned */
    /* Since 1.1. Optional (fn == NULL): every decoded floor is valid. The seed's TemplateValidationProtocol:
     * data checks before drawing. Returns false after reporting each problem (path relative to the floor);
     * the host then leaves the floor out and destroys the model. Problems reported by a call that returns
     * true are warnings: the floor is shown and each is printed with its path, as extend's dropped items are
     * (the Swift SDK reports the items a list decoded with DroppingBrokenItems left out this way; a host
     * that predates this sentence ignores them, and the floor is still shown). The host calls it once,
     * right after decode. */
    floor_selector_t validate;  /* FLOOR_SIG_VALIDATE */
    /* Since 1.1. Optional (fn == NULL): the floor cannot be continued by a next page. Appends `next`'s
     * content (a model of the same type, decoded from a next page's floor with the same id) to `model`,
     * reports each dropped duplicate item, and fills `result`. The host destroys `next` afterwards. */
    floor_selector_t extend;    /* FLOOR_SIG_EXTEND */
    /* Since 1.3. Optional (NULL: the floor type declares no schema, and the host checks no field of its
     * floors; a plugin built against 1.1 or 1.2 ends the struct before this field and has none).
     * A JSON Schema (draft 2020-12) of the floor object, UTF-8, NUL-terminated, plugin-owned and valid for
     * the process (the host copies it at registration). The host understands this subset: "type" (a name
     * or an array of names: object, array, string, number, integer, boolean, null), "properties",
     * "required", "additionalProperties" (false, or a schema), "items", "enum", "minimum", "maximum",
     * "description", "default", "title"; other keywords are carried into `floorhost schema` unchanged but
     * not checked. The root is an object schema listing the plugin's own fields; the host adds "type",
     * "pattern" and "id" itself, and, unless the root says "additionalProperties", treats any other field
     * as unknown. Every floor is checked against it before decode: an unknown field, a wrong type or a
     * missing required field is a warning naming its path ("floors[3].colums: unknown field of IconGrid;
     * did you mean 'columns'?"), a problem for `floorhost check`, and the floor is still decoded (a value the
     * decoder refuses is reported once, by the decoder). A schema that does not parse, or whose root is not an
     * object schema, is not used: the floor type still registers, a warning names the plugin and the JSON
     * Pointer at fault, and `floorhost conform` fails its `schema` check.
     * Example: {"type":"object","properties":{"text":{"type":"string","description":"the label"}},
     *           "required":["text"]} */
    const char *schema_json;
} floor_floor_type_t;

/* ---------------------------------------------------------------------------------------------------
 * The host table and the descriptor.
 * ------------------------------------------------------------------------------------------------- */

typedef struct floor_host floor_host_t;
struct floor_host {
    uint32_t struct_size;
    uint32_t abi_major;
    uint32_t abi_minor;
    void *host_data;            /* the host's; a plugin must not touch it */
    /* Registers a row type. Returns its id (>= 0), which expand passes to floor_row_sink_t.add, or -1
     * when refused (the host has already said why). Only during init: a call after init returned is
     * refused with an error naming the plugin. */
    int32_t (*register_row_type)(const floor_host_t *host, const floor_row_type_t *row_type);
    /* Registers a floor type. Returns false when refused (the host says why). Only during init, as above. */
    bool (*register_floor_type)(const floor_host_t *host, const floor_floor_type_t *floor_type);
    /* A message for the user, attributed to this plugin. During init or any call the host makes into the
     * plugin, on the thread of that call (see Threading above; never from a thread of the plugin's own);
     * `message` is copied and printed with control characters escaped (see Text above). */
    void (*log)(const floor_host_t *host, floor_log_level_t level, const char *message);
    /* Since 1.4 (read it only when struct_size covers it; a 1.3 host's table ends before it). The same
     * width as floor_canvas_t.measure_text, for height calculators, which get no canvas: a height that
     * follows a title's length measures it here. Callable during any call the host makes into the plugin
     * (height included), on that call's thread; utf8 is read during the call only; NULL is 0. */
    double (*measure_text)(const floor_host_t *host, const char *utf8, uint32_t style);
};

typedef struct floor_plugin_descriptor {
    uint32_t struct_size;       /* sizeof(floor_plugin_descriptor_t) as the plugin compiled it */
    uint32_t abi_major;         /* FLOOR_ABI_MAJOR the plugin was built against */
    uint32_t abi_minor;         /* FLOOR_ABI_MINOR the plugin was built against */
    const char *id;             /* reverse-DNS, unique: "com.example.floor.product-feed" */
    const char *name;           /* for people: "Product feed" */
    const char *version;        /* the plugin's own version: "1.2.0" */
    /* Registers everything through `host`. The host table stays valid for the life of the process.
     * Returning false refuses the plugin; everything it registered is withdrawn. */
    bool (*init)(const floor_host_t *host);
} floor_plugin_descriptor_t;

/* The entry function's type: `const floor_plugin_descriptor_t *floor_plugin_entry(void);` */
typedef const floor_plugin_descriptor_t *(*floor_plugin_entry_t)(void);

#ifdef __cplusplus
}
#endif

#endif /* FLOOR_ABI_H */
