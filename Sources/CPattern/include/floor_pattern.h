#ifndef FLOOR_PATTERN_H
#define FLOOR_PATTERN_H
/*
 * A schema "pattern" compiled with the system's ICU regular expressions (Debian's libicu-dev), matched over
 * UTF-8 as it is, with no conversion and no Foundation in between: the schema check runs one for each
 * string field with a pattern, for every item of a page. Nothing of ICU is declared here (Foundation brings
 * its own ICU types to Swift): plain C calls only.
 *
 * Threading: a compiled pattern holds matching state, so `floor_pattern_find` takes the pattern's own lock;
 * any thread may call it.
 */
#include <stdint.h>

typedef struct floor_pattern floor_pattern_t;

/* Compiles `length` bytes of UTF-8 (ECMA-262-like syntax as ICU reads it); NULL when it does not compile, or
 * when ICU's libicui18n, opened at the first call, cannot be. */
floor_pattern_t *floor_pattern_compile(const char *utf8, int64_t length);

/* 1 when the pattern matches somewhere in `length` bytes of UTF-8 (invalid UTF-8 is matched as U+FFFD),
 * 0 when it does not, -1 when ICU fails (then the caller treats the text as not matching). */
int floor_pattern_find(floor_pattern_t *pattern, const char *utf8, int64_t length);

void floor_pattern_free(floor_pattern_t *pattern);

#endif
