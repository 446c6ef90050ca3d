// SHA-256 from the system's OpenSSL libcrypto (Debian's libssl-dev; Scripts/setup installs it), for
// LibraryDigest. The host's only cryptography: one library for it rather than a second BoringSSL compiled
// from source (swift-nio-ssl already compiles one for https).
#include <openssl/evp.h>
