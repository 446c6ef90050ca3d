/*
 * floor_abi.h: the whole contract between the FloorKit host (floorhost) and a floor plugin, and the one header
 * a plugin includes (`#include "floor_abi.h"` or `<floor_abi.h>`, with -I naming this folder).
 *
 * A floor plugin is a shared library that exports one function, `floor_plugin_entry`, returning a descriptor;
 * the host checks its ABI version and calls its `init` with a host table through which the plugin registers
 * floor types and row types. Only C structs, C function pointers, UTF-8 strings and opaque handles cross this
 * boundary: a plugin may be written in any language that can export a C function.
 *
 * The contract in full, with the reasons for it, is docs/ABI.md (the header comments name its sections);
 * what each ABI minor added, and the rules for adding more, is docs/ABI-CHANGELOG.md. One header a concept:
 *   floor_abi/version.h       FLOOR_ABI_MAJOR, FLOOR_ABI_MINOR, FLOOR_PLUGIN_ENTRY_SYMBOL
 *   floor_abi/selector.h      floor_selector_t, floor_fn_t, the signature encoding and FLOOR_SIG_*
 *   floor_abi/log.h           floor_log_level_t
 *   floor_abi/sinks.h         floor_report_t, floor_row_sink_t and FLOOR_ROW_*, floor_action_sink_t,
 *                             floor_extend_result_t
 *   floor_abi/canvas.h        floor_canvas_t, FLOOR_TEXT_*, FLOOR_TONE_*
 *   floor_abi/registration.h  floor_row_type_t, floor_floor_type_t, FLOOR_MAX_ROW_HEIGHT, FLOOR_TAPPABLE_MAX
 *   floor_abi/host.h          floor_host_t
 *   floor_abi/plugin.h        floor_plugin_descriptor_t, floor_plugin_entry_t
 *
 * Every field's comment starts with three tags: which thread, when, and who owns it (docs/ABI.md, "Contract tags").
 *   Which thread:
 *     [host-thread]  a plugin function: the host calls it, one call into the plugin at a time (no locks needed)
 *     [call-thread]  a host function: call it only on the thread of the host's call into the plugin that is
 *                    running, before that call returns; never from a thread of the plugin's own
 *     [data]         not a function: a value one side writes and the other reads
 *   When (a function: when it may be called; data: how long it is valid):
 *     [at load]          once, when the host opens the library: the entry function, then init
 *     [during init]      only while init runs
 *     [after init]       whenever the host needs it, after init returned true
 *     [during X]         only during the call of selector X (X|Y: during either); "during the call": the one it
 *                        was passed to
 *     [any call]         during init or any other call the host makes into the plugin
 *     [at registration]  read by the register_* call only
 *     [for the process]  valid, and unchanged, for the life of the process
 *     A qualifier after a comma narrows a tag: [during expand, once, before any add].
 *   Who owns it:
 *     [plugin-owned]  the plugin's memory or function: it keeps it valid as long as "when" says; the host never
 *                     writes or frees it
 *     [host-owned]    the host's memory or function: the plugin never frees it, nor keeps it past "when"
 */
#ifndef FLOOR_ABI_H
#define FLOOR_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "floor_abi/version.h"
#include "floor_abi/selector.h"
#include "floor_abi/log.h"
#include "floor_abi/sinks.h"
#include "floor_abi/canvas.h"
#include "floor_abi/registration.h"
#include "floor_abi/host.h"
#include "floor_abi/plugin.h"

#endif /* FLOOR_ABI_H */
