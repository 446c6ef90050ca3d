// The system's libcurl (Debian's libcurl4-openssl-dev; Scripts/setup installs it), for RemotePageClient's
// pages over http(s): TLS from the system's OpenSSL, so no BoringSSL is compiled from source for it.
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed wrapper per kind
// of argument the client passes.
#include <curl/curl.h>

typedef size_t (*floor_curl_data_callback)(char *, size_t, size_t, void *);
typedef int (*floor_curl_prereq_callback)(void *, char *, char *, int, int);

static inline CURLcode floor_curl_set_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode floor_curl_set_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode floor_curl_set_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode floor_curl_set_blob(CURL *curl, CURLoption option, struct curl_blob *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode floor_curl_set_slist(CURL *curl, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode floor_curl_set_data_callback(CURL *curl, CURLoption option, floor_curl_data_callback value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode floor_curl_set_prereq_callback(
    CURL *curl, CURLoption option, floor_curl_prereq_callback value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode floor_curl_get_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}

static inline CURLcode floor_curl_get_string(CURL *curl, CURLINFO info, char **value) {
    return curl_easy_getinfo(curl, info, value);
}
