// The system's libcurl (Debian's libcurl4; its headers from libcurl4-openssl-dev, which Scripts/setup
// installs), for RemotePageClient's pages over http(s): TLS from the system's OpenSSL, so no TLS library is
// compiled from source. Loaded with dlopen the first time a page over http(s) is asked for
// (floor_curl_load), not linked: libcurl and the thirty libraries it needs (Kerberos, LDAP, SSH, GnuTLS...)
// cost every process about 3 ms to map and relocate, and most floorhost processes never fetch a page.
// Every function of it the client calls is one of these; curl_easy_setopt and curl_easy_getinfo are
// variadic, which Swift cannot call, so they have one typed wrapper per kind of argument the client passes.
#include <curl/curl.h>
#include <stddef.h>

typedef size_t (*floor_curl_data_callback)(char *, size_t, size_t, void *);
typedef int (*floor_curl_prereq_callback)(void *, char *, char *, int, int);

/// Opens the shared library `name` and finds every function below in it, without keeping it for them: 0 when
/// all are there, else -1 with the reason (the loader's words, NUL-terminated) in `reason`.
int floor_curl_check(const char *name, char *reason, size_t size);

/// Loads libcurl.so.4 and runs curl_global_init, once per process (thread-safe): 0 when curl is ready, else
/// -1 with the reason in `reason`. None of the functions below may be called before it returned 0.
int floor_curl_load(char *reason, size_t size);

CURL *floor_curl_easy_init(void);
void floor_curl_easy_reset(CURL *curl);
void floor_curl_easy_cleanup(CURL *curl);
CURLcode floor_curl_easy_perform(CURL *curl);
const char *floor_curl_easy_strerror(CURLcode code);
struct curl_slist *floor_curl_slist_append(struct curl_slist *list, const char *text);
void floor_curl_slist_free_all(struct curl_slist *list);

CURLcode floor_curl_set_long(CURL *curl, CURLoption option, long value);
CURLcode floor_curl_set_string(CURL *curl, CURLoption option, const char *value);
CURLcode floor_curl_set_pointer(CURL *curl, CURLoption option, void *value);
CURLcode floor_curl_set_blob(CURL *curl, CURLoption option, struct curl_blob *value);
CURLcode floor_curl_set_slist(CURL *curl, CURLoption option, struct curl_slist *value);
CURLcode floor_curl_set_data_callback(CURL *curl, CURLoption option, floor_curl_data_callback value);
CURLcode floor_curl_set_prereq_callback(CURL *curl, CURLoption option, floor_curl_prereq_callback value);
CURLcode floor_curl_get_long(CURL *curl, CURLINFO info, long *value);
CURLcode floor_curl_get_string(CURL *curl, CURLINFO info, char **value);
