#include "system_library.h"

#include <dlfcn.h>
#include <stdio.h>

void *floor_open_functions(
    const char *name, const char *const *names, int count, void **functions, char *reason, size_t size) {
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(reason, size, "%s", why ? why : name);
        return NULL;
    }
    for (int i = 0; i < count; i++) {
        functions[i] = dlsym(library, names[i]);
        if (functions[i] == NULL) {
            snprintf(reason, size, "%s has no %s", name, names[i]);
            dlclose(library);
            return NULL;
        }
    }
    return library;
}
