// Finding a system library's functions (for curl_functions.c and crypto_functions.c).
#include <stddef.h>

/// Opens the shared library `name` (RTLD_NOW | RTLD_LOCAL, so that its symbols reach no plugin) and finds
/// each of `names` in it, into `functions`: the library, or NULL with the reason (the loader's words, or the
/// first function missing) in `reason`, having closed it.
void *floor_open_functions(
    const char *name, const char *const *names, int count, void **functions, char *reason, size_t size);
