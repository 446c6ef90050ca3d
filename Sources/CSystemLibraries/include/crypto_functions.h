// The system's OpenSSL libcrypto (Debian's libssl3; its headers from libssl-dev, which Scripts/setup
// installs): SHA-256 for LibraryDigest, and reading the certificates of a --ca-file (CAFile). The host's
// only cryptography: one system library for it, the one the system's libcurl does its TLS with, rather than
// a BoringSSL compiled from source. Loaded with dlopen when first needed (plugins.lock, a new plugin's scan,
// --ca-file), not linked: mapping and relocating it cost every process 0.75 ms, and most need none of it.
#include <stddef.h>

/// Loads libcrypto.so.3 and finds the functions these need, once per process (thread-safe): 0 when ready,
/// else -1 with the reason (the loader's words, NUL-terminated) in `reason`.
int floor_crypto_load(char *reason, size_t size);

/// The SHA-256 of everything that can be read from `fd` (1 MiB at a time, EINTR retried) into `digest`:
/// 0, or -1 when a read or the digest fails or libcrypto cannot be loaded.
int floor_sha256_fd(int fd, unsigned char digest[32]);

/// How many certificates the PEM text holds (blocks of other kinds, a key, skipped): -1 when a certificate
/// block cannot be read or libcrypto cannot be loaded.
int floor_pem_certificate_count(const void *bytes, size_t count);
