/*
 * floor_abi/version.h: the ABI version a plugin is built against and the one symbol it exports.
 * Part of floor_abi.h, which a plugin includes (its top comment explains the [tags]); docs/ABI.md, "Versions",
 * has the rules and docs/ABI-CHANGELOG.md what each minor added.
 */
#ifndef FLOOR_ABI_VERSION_H
#define FLOOR_ABI_VERSION_H

/* A new major breaks the contract: the host refuses a plugin whose major differs from its own. */
#define FLOOR_ABI_MAJOR 1
/* A new minor only adds (fields appended to sized structs, optional selectors): the host refuses only a newer minor. */
#define FLOOR_ABI_MINOR 5

/* The one symbol a plugin exports, a floor_plugin_entry_t (floor_abi/plugin.h; docs/ABI.md, "Loading"). */
#define FLOOR_PLUGIN_ENTRY_SYMBOL "floor_plugin_entry"

#endif /* FLOOR_ABI_VERSION_H */
