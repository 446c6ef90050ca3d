#ifndef BENCH_SUPPORT_H
#define BENCH_SUPPORT_H
#include <stdint.h>
#include <malloc.h>

/* Same shapes as the ABI's height calculator and cell selector; compiled separately (no LTO), so a call
 * from Swift is a real call: the "direct call" baseline. */
double bench_height(void *ctx, void *model, uint64_t row, double width);
void bench_cell(void *ctx, void *model, uint64_t row, const void *canvas);

/* libffi with everything prepared once (see bench_support.c); returns 0 when a cif cannot be prepared. */
int bench_ffi_prepare(void (*height)(void), void (*cell)(void));
double bench_ffi_height(void *ctx, void *model, uint64_t row, double width);
void bench_ffi_cell(void *ctx, void *model, uint64_t row, const void *canvas);

/* Bytes the process holds from malloc right now: arena bytes in use plus mmap'd blocks (glibc mallinfo2). */
uint64_t bench_malloc_in_use(void);
/* Returns freed arena memory at the top of the heap to the system; called before each reading. */
void bench_malloc_trim(void);
#endif
