#include "line_break.h"

#include <unicode/ubrk.h>
#include <unicode/utypes.h>

floor_break_iterator_t *floor_break_open(int line) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *it = ubrk_open(line ? UBRK_LINE : UBRK_CHARACTER, "en", NULL, 0, &status);
    if (U_FAILURE(status)) {
        return NULL;
    }
    return (floor_break_iterator_t *)it;
}

void floor_break_close(floor_break_iterator_t *it) { ubrk_close((UBreakIterator *)it); }

int floor_break_set_text(floor_break_iterator_t *it, const uint16_t *text, int32_t length) {
    UErrorCode status = U_ZERO_ERROR;
    ubrk_setText((UBreakIterator *)it, (const UChar *)text, length, &status);
    if (U_FAILURE(status)) {
        return 0;
    }
    ubrk_first((UBreakIterator *)it);
    return 1;
}

int32_t floor_break_next(floor_break_iterator_t *it) {
    int32_t next = ubrk_next((UBreakIterator *)it);
    return next == UBRK_DONE ? -1 : next;
}

int floor_break_is_hard(floor_break_iterator_t *it) {
    int32_t status = ubrk_getRuleStatus((UBreakIterator *)it);
    return status >= UBRK_LINE_HARD && status < UBRK_LINE_HARD_LIMIT;
}

int32_t floor_break_following(floor_break_iterator_t *it, int32_t offset) {
    int32_t next = ubrk_following((UBreakIterator *)it, offset);
    return next == UBRK_DONE ? -1 : next;
}
