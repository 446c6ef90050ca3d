/*
 * plugin_exit.h: floorhost's own exit, _exit and _Exit (plugin_exit.c). Linked into the floorhost executable
 * only, which exports them (Package.swift's linker settings), so that a plugin library dlopen'ed later binds its
 * calls to them instead of libc's: a plugin that ends the process inside a plugin call is named (FloorCore's
 * PluginExitGuard) and floorhost exits with status 1. Nothing here is called by name; the header only documents.
 */
#ifndef FLOORKIT_PLUGIN_EXIT_H
#define FLOORKIT_PLUGIN_EXIT_H

/* FloorCore's answer (PluginExitGuard.swift, weakly referenced): nonzero when a plugin call is in progress
   and it has printed the line naming it, so the process must end with status 1; 0 to end as libc would. */
int floorkit_plugin_exit_caught(const char *function, int status);

#endif /* FLOORKIT_PLUGIN_EXIT_H */
