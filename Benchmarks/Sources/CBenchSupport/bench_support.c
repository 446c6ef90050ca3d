#include "bench_support.h"

double bench_height(void *ctx, void *model, uint64_t row, double width) {
    (void)ctx; (void)model; (void)width;
    return 40.0 + (double)(row & 7);
}

void bench_cell(void *ctx, void *model, uint64_t row, const void *canvas) {
    (void)ctx; (void)model; (void)row; (void)canvas;
}

uint64_t bench_malloc_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (uint64_t)info.uordblks + (uint64_t)info.hblkhd;
}

void bench_malloc_trim(void) { malloc_trim(0); }
