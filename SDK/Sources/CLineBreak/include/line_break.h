/*
 * ICU's break iterators behind plain C types, for the text engine FloorText (docs/ABI.md, "Text layout"):
 * line break opportunities by Unicode's line-breaking rules (UAX #14) and grapheme cluster boundaries.
 * An iterator is not thread-safe: one caller at a time (FloorText uses them under its lock).
 */
#ifndef FLOOR_LINE_BREAK_H
#define FLOOR_LINE_BREAK_H

#include <stdint.h>

typedef struct floor_break_iterator floor_break_iterator_t;

/* A line (line != 0) or grapheme cluster iterator; NULL when ICU cannot open one. */
floor_break_iterator_t *floor_break_open(int line);
void floor_break_close(floor_break_iterator_t *it);
/* Points the iterator at `length` UTF-16 units, which must outlive the calls that follow; 0 on failure. */
int floor_break_set_text(floor_break_iterator_t *it, const uint16_t *text, int32_t length);
/* The next boundary after the last one returned (the first call: after 0); -1 at the end. */
int32_t floor_break_next(floor_break_iterator_t *it);
/* Whether the boundary last returned by floor_break_next is a mandatory line break. */
int floor_break_is_hard(floor_break_iterator_t *it);
/* The first boundary after `offset`; -1 when none. */
int32_t floor_break_following(floor_break_iterator_t *it, int32_t offset);

#endif
