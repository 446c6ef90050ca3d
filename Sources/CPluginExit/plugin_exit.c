/*
 * exit, _exit and _Exit as floorhost defines them. The executable exports these three symbols, and the
 * dynamic linker resolves a plugin library's (and every other library's) calls to them here, before libc:
 * an atexit handler alone never sees _exit, and a plugin's exit(0) would otherwise end floorhost with a
 * success status and nothing printed. Each asks FloorCore (floorkit_plugin_exit_caught) first: inside a
 * plugin call it has printed one line naming the plugin, the selector and the floor, and the process ends
 * with status 1 at once (no exit handlers: the plugin's call never returned, the host's state is mid-call).
 * Outside plugin calls each behaves as libc's: exit is libc's own (found with dlsym(RTLD_NEXT)), with its
 * handlers and flushing; _exit and _Exit end the process directly, as libc's do.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "plugin_exit.h"

/* Weak: resolved when FloorCore is linked in (always, in floorhost); NULL means no guard. */
extern int floorkit_plugin_exit_caught(const char *function, int status) __attribute__((weak));

/* What libc's _exit does: end every thread of the process now. */
__attribute__((noreturn)) static void end_process(int status) {
    for (;;) syscall(SYS_exit_group, status);
}

static int caught(const char *function, int status) {
    return floorkit_plugin_exit_caught != NULL && floorkit_plugin_exit_caught(function, status) != 0;
}

__attribute__((noreturn)) void exit(int status) {
    if (caught("exit", status)) end_process(1);
    void (*libc_exit)(int) = (void (*)(int))dlsym(RTLD_NEXT, "exit");
    if (libc_exit != NULL) libc_exit(status);
    end_process(status);
}

__attribute__((noreturn)) void _exit(int status) {
    if (caught("_exit", status)) end_process(1);
    end_process(status);
}

__attribute__((noreturn)) void _Exit(int status) {
    if (caught("_Exit", status)) end_process(1);
    end_process(status);
}
