// libcurl's functions, found the first time a page over http(s) is asked for (include/curl_functions.h
// says why).
#include "curl_functions.h"
#include "system_library.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/// The functions the client calls, in the order of `names`.
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_reset)(CURL *);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
} curl;

static const char *const names[] = {
    "curl_global_init", "curl_easy_init", "curl_easy_reset", "curl_easy_cleanup", "curl_easy_perform",
    "curl_easy_strerror", "curl_slist_append", "curl_slist_free_all", "curl_easy_setopt", "curl_easy_getinfo",
};
enum { function_count = sizeof(names) / sizeof(names[0]) };

int floor_curl_check(const char *name, char *reason, size_t size) {
    void *functions[function_count];
    void *library = floor_open_functions(name, names, function_count, functions, reason, size);
    if (library == NULL) return -1;
    dlclose(library);
    return 0;
}

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static char failure[512];

static void load(void) {
    void *functions[function_count];
    if (floor_open_functions("libcurl.so.4", names, function_count, functions, failure, sizeof failure) == NULL) return;
    _Static_assert(sizeof curl == sizeof functions, "one pointer a function, in the order of names");
    memcpy(&curl, functions, sizeof curl);
    // curl's and OpenSSL's global state, before any handle (thread-safe in this libcurl, whose features list
    // "threadsafe", but done once here so that no transfer races it).
    CURLcode code = curl.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(failure, sizeof failure, "curl_global_init failed (%d)", (int)code);
        return;
    }
    loaded = 0;
}

int floor_curl_load(char *reason, size_t size) {
    pthread_once(&once, load);
    if (loaded != 0) snprintf(reason, size, "%s", failure);
    return loaded;
}

CURL *floor_curl_easy_init(void) { return curl.easy_init(); }
void floor_curl_easy_reset(CURL *handle) { curl.easy_reset(handle); }
void floor_curl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
CURLcode floor_curl_easy_perform(CURL *handle) { return curl.easy_perform(handle); }
const char *floor_curl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }
struct curl_slist *floor_curl_slist_append(struct curl_slist *list, const char *text) {
    return curl.slist_append(list, text);
}
void floor_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

CURLcode floor_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode floor_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode floor_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode floor_curl_set_blob(CURL *handle, CURLoption option, struct curl_blob *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode floor_curl_set_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode floor_curl_set_data_callback(CURL *handle, CURLoption option, floor_curl_data_callback value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode floor_curl_set_prereq_callback(CURL *handle, CURLoption option, floor_curl_prereq_callback value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode floor_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl.easy_getinfo(handle, info, value);
}
CURLcode floor_curl_get_string(CURL *handle, CURLINFO info, char **value) {
    return curl.easy_getinfo(handle, info, value);
}
