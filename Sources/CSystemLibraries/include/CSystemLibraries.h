// System libraries the host loads with dlopen when it first needs them, rather than links: libcurl for pages
// over http(s) (curl_functions.h) and libcrypto for SHA-256 and --ca-file's certificates
// (crypto_functions.h). Mapping and relocating them (and libcurl's thirty libraries) cost every process
// milliseconds, and most floorhost processes need neither.
#include "curl_functions.h"
#include "crypto_functions.h"
