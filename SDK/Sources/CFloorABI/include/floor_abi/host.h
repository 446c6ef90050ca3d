/*
 * floor_abi/host.h: the host table, what the host gives a plugin's init to register its types through, and
 * the host functions a plugin may call during any call into it. Valid for the life of the process.
 * Part of floor_abi.h, which a plugin includes (its top comment explains the [tags]).
 */
#ifndef FLOOR_ABI_HOST_H
#define FLOOR_ABI_HOST_H

#include <stdbool.h>
#include <stdint.h>

#include "canvas.h"
#include "log.h"
#include "registration.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct floor_host floor_host_t;
struct floor_host {
    /* [data][for the process][host-owned] sizeof this table: fields past it are absent (docs/ABI.md, "Versions") */
    uint32_t struct_size;
    /* [data][for the process][host-owned] the host's FLOOR_ABI_MAJOR */
    uint32_t abi_major;
    /* [data][for the process][host-owned] the host's FLOOR_ABI_MINOR, never older than the plugin's */
    uint32_t abi_minor;
    /* [data][for the process][host-owned] the host's; a plugin must not touch it */
    void *host_data;
    /* [call-thread][during init][host-owned] registers a row type: its id (>= 0) for add, or -1 when refused */
    int32_t (*register_row_type)(const floor_host_t *host, const floor_row_type_t *row_type);
    /* [call-thread][during init][host-owned] registers a floor type; false when refused (the host says why) */
    bool (*register_floor_type)(const floor_host_t *host, const floor_floor_type_t *floor_type);
    /* [call-thread][any call][host-owned] a message for the user, attributed to this plugin (docs/ABI.md, "Logging") */
    void (*log)(const floor_host_t *host, floor_log_level_t level, const char *message);
    /* Since 1.4 (read it only when struct_size covers it; a 1.3 host's table ends before it): */
    /* [call-thread][any call][host-owned] floor_canvas_t.measure_text's width, for height calculators; NULL is 0 */
    double (*measure_text)(const floor_host_t *host, const char *utf8, uint32_t style);
    /* Since 1.5 (docs/ABI-1.5.md, part 1): */
    /* [call-thread][any call][host-owned] wraps `length` bytes of UTF-8 in `style` at max_width points, at most
       max_lines lines (0: no limit), and writes lines, width, height into `out`; same arguments, same answer */
    void (*layout_text)(const floor_host_t *host, const char *utf8, uint64_t length, uint32_t style, double max_width,
                        uint32_t max_lines, floor_text_layout_t *out);
};

#ifdef __cplusplus
}
#endif

#endif /* FLOOR_ABI_HOST_H */
