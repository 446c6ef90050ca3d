/*
 * floor_abi/plugin.h: the descriptor a plugin's entry function returns, and the entry function's type.
 * The host opens the library, calls the entry (FLOOR_PLUGIN_ENTRY_SYMBOL), checks the ABI version, then calls
 * init once with the host table (docs/ABI.md, "Loading").
 * Part of floor_abi.h, which a plugin includes (its top comment explains the [tags]).
 */
#ifndef FLOOR_ABI_PLUGIN_H
#define FLOOR_ABI_PLUGIN_H

#include <stdbool.h>
#include <stdint.h>

#include "host.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct floor_plugin_descriptor {
    /* [data][for the process][plugin-owned] sizeof(floor_plugin_descriptor_t) as the plugin compiled it */
    uint32_t struct_size;
    /* [data][for the process][plugin-owned] FLOOR_ABI_MAJOR the plugin was built against */
    uint32_t abi_major;
    /* [data][for the process][plugin-owned] FLOOR_ABI_MINOR the plugin was built against */
    uint32_t abi_minor;
    /* [data][for the process][plugin-owned] reverse-DNS, unique: "com.example.floor.product-feed" */
    const char *id;
    /* [data][for the process][plugin-owned] for people: "Product feed" */
    const char *name;
    /* [data][for the process][plugin-owned] the plugin's own version: "1.2.0" */
    const char *version;
    /* [host-thread][at load, once][plugin-owned] registers everything through `host`; false refuses the plugin */
    bool (*init)(const floor_host_t *host);
} floor_plugin_descriptor_t;

/* [host-thread][at load][plugin-owned] the entry: `const floor_plugin_descriptor_t *floor_plugin_entry(void);` */
typedef const floor_plugin_descriptor_t *(*floor_plugin_entry_t)(void);

#ifdef __cplusplus
}
#endif

#endif /* FLOOR_ABI_PLUGIN_H */
