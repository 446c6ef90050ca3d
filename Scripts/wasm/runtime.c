/* What Embedded Swift needs from libc on wasm32-unknown-none, for Scripts/wasm-decode: memory from a bump
 * allocator over the module's linear memory (never given back: the module runs one decode and ends) and
 * the byte functions the compiler calls. Nothing else is linked, so a missing symbol fails the link. */
#include <stddef.h>
#include <stdint.h>

extern unsigned char __heap_base;
static uintptr_t next_free = 0;

static void *bump(size_t size, size_t alignment) {
    if (next_free == 0) next_free = (uintptr_t)&__heap_base;
    uintptr_t start = (next_free + alignment - 1) & ~(uintptr_t)(alignment - 1);
    uintptr_t end = start + size;
    size_t have = __builtin_wasm_memory_size(0) * 65536;
    if (end > have) {
        size_t pages = (end - have + 65535) / 65536;
        if (__builtin_wasm_memory_grow(0, pages) == (size_t)-1) return NULL;
    }
    next_free = end;
    return (void *)start;
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    void *p = bump(size, alignment < 16 ? 16 : alignment);
    if (!p) return 12; /* ENOMEM */
    *out = p;
    return 0;
}

void *malloc(size_t size) { return bump(size, 16); }
void free(void *p) { (void)p; }

void *memcpy(void *dst, const void *src, size_t n) {
    unsigned char *d = dst;
    const unsigned char *s = src;
    while (n--) *d++ = *s++;
    return dst;
}

void *memmove(void *dst, const void *src, size_t n) {
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (d < s) {
        while (n--) *d++ = *s++;
    } else {
        while (n--) d[n] = s[n];
    }
    return dst;
}

void *memset(void *dst, int c, size_t n) {
    unsigned char *d = dst;
    while (n--) *d++ = (unsigned char)c;
    return dst;
}

int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++)
        if (*x != *y) return *x - *y;
    return 0;
}

size_t strlen(const char *s) {
    size_t n = 0;
    while (s[n]) n++;
    return n;
}

/* Double's rounding (Swift's `rounded()`): half away from zero, from wasm's exact truncation. */
double round(double x) {
    double t = __builtin_trunc(x);
    double rest = x - t;
    if (rest >= 0.5) return t + 1;
    if (rest <= -0.5) return t - 1;
    return t;
}

/* The 128-bit product compiler-rt provides (wasm32 has no libclang_rt here): the low 128 bits of a * b. */
typedef unsigned __int128 u128;
u128 __multi3(u128 a, u128 b) {
    uint64_t a_lo = (uint64_t)a, a_hi = (uint64_t)(a >> 64), b_lo = (uint64_t)b, b_hi = (uint64_t)(b >> 64);
    uint64_t lo_lo_lo = (a_lo & 0xffffffff) * (b_lo & 0xffffffff);
    uint64_t lo_lo_mid1 = (a_lo >> 32) * (b_lo & 0xffffffff);
    uint64_t lo_lo_mid2 = (a_lo & 0xffffffff) * (b_lo >> 32);
    uint64_t lo_lo_hi = (a_lo >> 32) * (b_lo >> 32);
    uint64_t carry = ((lo_lo_lo >> 32) + (lo_lo_mid1 & 0xffffffff) + (lo_lo_mid2 & 0xffffffff)) >> 32;
    uint64_t low = a_lo * b_lo;
    uint64_t high = lo_lo_hi + (lo_lo_mid1 >> 32) + (lo_lo_mid2 >> 32) + carry + a_lo * b_hi + a_hi * b_lo;
    return ((u128)high << 64) | low;
}
