// libcrypto's functions, found when first needed (include/crypto_functions.h says why).
#include "crypto_functions.h"
#include "system_library.h"

#include <errno.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/// The functions used, in the order of `names`.
static struct {
    EVP_MD_CTX *(*md_ctx_new)(void);
    void (*md_ctx_free)(EVP_MD_CTX *);
    int (*digest_init_ex)(EVP_MD_CTX *, const EVP_MD *, ENGINE *);
    const EVP_MD *(*sha256)(void);
    int (*digest_update)(EVP_MD_CTX *, const void *, size_t);
    int (*digest_final_ex)(EVP_MD_CTX *, unsigned char *, unsigned int *);
    void (*err_clear_error)(void);
    unsigned long (*err_peek_last_error)(void);
    BIO *(*bio_new_mem_buf)(const void *, int);
    int (*bio_free)(BIO *);
    X509 *(*pem_read_bio_x509_aux)(BIO *, X509 **, pem_password_cb *, void *);
    void (*x509_free)(X509 *);
} crypto;

static const char *const names[] = {
    "EVP_MD_CTX_new",  "EVP_MD_CTX_free",     "EVP_DigestInit_ex", "EVP_sha256",
    "EVP_DigestUpdate", "EVP_DigestFinal_ex", "ERR_clear_error",   "ERR_peek_last_error",
    "BIO_new_mem_buf", "BIO_free",            "PEM_read_bio_X509_AUX", "X509_free",
};
enum { function_count = sizeof(names) / sizeof(names[0]) };

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = -1;
static char failure[512];

static void load(void) {
    void *functions[function_count];
    if (floor_open_functions("libcrypto.so.3", names, function_count, functions, failure, sizeof failure) == NULL) {
        return;
    }
    _Static_assert(sizeof crypto == sizeof functions, "one pointer a function, in the order of names");
    memcpy(&crypto, functions, sizeof crypto);
    loaded = 0;
}

int floor_crypto_load(char *reason, size_t size) {
    pthread_once(&once, load);
    if (loaded != 0 && reason != NULL && size > 0) snprintf(reason, size, "%s", failure);
    return loaded;
}

int floor_sha256_fd(int fd, unsigned char digest[32]) {
    if (floor_crypto_load(NULL, 0) != 0) return -1;
    enum { chunk_size = 1 << 20 };
    unsigned char *chunk = malloc(chunk_size);
    EVP_MD_CTX *context = chunk ? crypto.md_ctx_new() : NULL;
    if (context == NULL) {
        free(chunk);
        return -1;
    }
    int result = -1;
    if (crypto.digest_init_ex(context, crypto.sha256(), NULL) != 1) goto done;
    for (;;) {
        ssize_t n = read(fd, chunk, chunk_size);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) goto done;
        if (n == 0) break;
        if (crypto.digest_update(context, chunk, (size_t)n) != 1) goto done;
    }
    unsigned char full[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (crypto.digest_final_ex(context, full, &length) != 1 || length != 32) goto done;
    memcpy(digest, full, 32);
    result = 0;
done:
    crypto.md_ctx_free(context);
    free(chunk);
    return result;
}

int floor_pem_certificate_count(const void *bytes, size_t count) {
    if (floor_crypto_load(NULL, 0) != 0 || count > 0x7fffffff) return -1;
    crypto.err_clear_error();
    BIO *bio = crypto.bio_new_mem_buf(bytes, (int)count);
    if (bio == NULL) return -1;
    int certificates = 0;
    // The _AUX reader takes -----BEGIN TRUSTED CERTIFICATE----- blocks too.
    for (X509 *certificate; (certificate = crypto.pem_read_bio_x509_aux(bio, NULL, NULL, NULL)) != NULL;) {
        crypto.x509_free(certificate);
        certificates++;
    }
    crypto.bio_free(bio);
    // The loop ends at the end of the text (no further block) or at a block it could not read.
    unsigned long last = crypto.err_peek_last_error();
    int at_end = ERR_GET_LIB(last) == ERR_LIB_PEM && ERR_GET_REASON(last) == PEM_R_NO_START_LINE;
    crypto.err_clear_error();
    return at_end ? certificates : -1;
}
