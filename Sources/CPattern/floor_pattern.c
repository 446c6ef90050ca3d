#include "floor_pattern.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/uregex.h>
#include <unicode/utext.h>

/* ICU's regular expressions are libicui18n's, a 3.5 MB library that every process would map and relocate at
 * its start (1.5 M instructions of the empty page's 52.6 M, BENCHMARKS.md, "A process's start, cheaper"),
 * although only a pattern no hand matcher takes (FloorSchema.Pattern) needs it, and no shipped plugin has
 * one. So it is opened when the first such pattern is compiled, RTLD_LOCAL (its symbols reach no plugin),
 * and never closed. UText is libicuuc's, which the text engine links anyway. */
#define FLOOR_STRING(x) #x
#define FLOOR_NAME(x) FLOOR_STRING(x)

static struct {
    URegularExpression *(*open_utext)(UText *, uint32_t, UParseError *, UErrorCode *);
    void (*close)(URegularExpression *);
    void (*set_utext)(URegularExpression *, UText *, UErrorCode *);
    void (*set_text)(URegularExpression *, const UChar *, int32_t, UErrorCode *);
    UBool (*find_next)(URegularExpression *, UErrorCode *);
} icu;

static pthread_once_t icu_once = PTHREAD_ONCE_INIT;
static int icu_loaded;

/* The versioned names ICU's headers rename each function to (uregex_openUText_72, ...), and its library. */
static void load_icu(void) {
    void *library = dlopen("libicui18n.so." FLOOR_NAME(U_ICU_VERSION_MAJOR_NUM), RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        return;
    }
    void *functions[] = {
        dlsym(library, FLOOR_NAME(uregex_openUText)), dlsym(library, FLOOR_NAME(uregex_close)),
        dlsym(library, FLOOR_NAME(uregex_setUText)),  dlsym(library, FLOOR_NAME(uregex_setText)),
        dlsym(library, FLOOR_NAME(uregex_findNext)),
    };
    _Static_assert(sizeof icu == sizeof functions, "one pointer a function, in the order of the struct");
    for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
        if (functions[i] == NULL) {
            return;
        }
    }
    memcpy(&icu, functions, sizeof icu);
    icu_loaded = 1;
}

struct floor_pattern {
    URegularExpression *regex;
    pthread_mutex_t lock;
};

floor_pattern_t *floor_pattern_compile(const char *utf8, int64_t length) {
    pthread_once(&icu_once, load_icu);
    if (!icu_loaded) {
        return NULL;
    }
    UErrorCode status = U_ZERO_ERROR;
    UText source = UTEXT_INITIALIZER;
    utext_openUTF8(&source, utf8, length, &status);
    if (U_FAILURE(status)) {
        return NULL;
    }
    URegularExpression *regex = icu.open_utext(&source, 0, NULL, &status);
    utext_close(&source);
    if (U_FAILURE(status)) {
        return NULL;
    }
    floor_pattern_t *pattern = malloc(sizeof *pattern);
    if (pattern == NULL) {
        icu.close(regex);
        return NULL;
    }
    pattern->regex = regex;
    pthread_mutex_init(&pattern->lock, NULL);
    return pattern;
}

int floor_pattern_find(floor_pattern_t *pattern, const char *utf8, int64_t length) {
    UErrorCode status = U_ZERO_ERROR;
    UText text = UTEXT_INITIALIZER;
    utext_openUTF8(&text, utf8, length, &status);
    if (U_FAILURE(status)) {
        return -1;
    }
    pthread_mutex_lock(&pattern->lock);
    icu.set_utext(pattern->regex, &text, &status);
    int found = U_SUCCESS(status) ? icu.find_next(pattern->regex, &status) : 0;
    /* The pattern must not keep pointing at the caller's bytes. */
    UErrorCode reset = U_ZERO_ERROR;
    icu.set_text(pattern->regex, (const UChar *)u"", 0, &reset);
    pthread_mutex_unlock(&pattern->lock);
    utext_close(&text);
    if (U_FAILURE(status)) {
        return -1;
    }
    return found ? 1 : 0;
}

void floor_pattern_free(floor_pattern_t *pattern) {
    if (pattern == NULL) {
        return;
    }
    icu.close(pattern->regex);
    pthread_mutex_destroy(&pattern->lock);
    free(pattern);
}
