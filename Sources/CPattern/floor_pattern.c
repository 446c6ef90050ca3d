#include "floor_pattern.h"

#include <pthread.h>
#include <stdlib.h>
#include <unicode/uregex.h>
#include <unicode/utext.h>

struct floor_pattern {
    URegularExpression *regex;
    pthread_mutex_t lock;
};

floor_pattern_t *floor_pattern_compile(const char *utf8, int64_t length) {
    UErrorCode status = U_ZERO_ERROR;
    UText source = UTEXT_INITIALIZER;
    utext_openUTF8(&source, utf8, length, &status);
    if (U_FAILURE(status)) {
        return NULL;
    }
    URegularExpression *regex = uregex_openUText(&source, 0, NULL, &status);
    utext_close(&source);
    if (U_FAILURE(status)) {
        return NULL;
    }
    floor_pattern_t *pattern = malloc(sizeof *pattern);
    if (pattern == NULL) {
        uregex_close(regex);
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
    uregex_setUText(pattern->regex, &text, &status);
    int found = U_SUCCESS(status) ? uregex_findNext(pattern->regex, &status) : 0;
    /* The pattern must not keep pointing at the caller's bytes. */
    UErrorCode reset = U_ZERO_ERROR;
    uregex_setText(pattern->regex, (const UChar *)u"", 0, &reset);
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
    uregex_close(pattern->regex);
    pthread_mutex_destroy(&pattern->lock);
    free(pattern);
}
