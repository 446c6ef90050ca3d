// The system's OpenSSL libcrypto (Debian's libssl-dev; Scripts/setup installs it): SHA-256 for
// LibraryDigest, and reading the certificates of a --ca-file (CAFile). The host's only cryptography: one
// system library for it, the one the system's libcurl does its TLS with, rather than a BoringSSL compiled
// from source.
#include <openssl/evp.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
