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

/* libffi as SelectorInvoker uses it, from C and without its argument checks: call interfaces prepared once,
 * argument slots and pointer arrays allocated once (calls are single-threaded by contract), so a call is a
 * few stores and one ffi_call. The floor for the host's ffi path. */
#include <ffi.h>

static ffi_cif height_cif, cell_cif;
static ffi_type *height_types[4], *cell_types[4];
static void (*height_fn)(void), (*cell_fn)(void);
static void *height_slots[4], *cell_slots[4];
static void *ctx_slot, *model_slot, *canvas_slot;
static uint64_t row_slot;
static double width_slot;

int bench_ffi_prepare(void (*height)(void), void (*cell)(void)) {
    height_fn = height;
    cell_fn = cell;
    height_types[0] = &ffi_type_pointer; height_types[1] = &ffi_type_pointer;
    height_types[2] = &ffi_type_uint64; height_types[3] = &ffi_type_double;
    cell_types[0] = &ffi_type_pointer; cell_types[1] = &ffi_type_pointer;
    cell_types[2] = &ffi_type_uint64; cell_types[3] = &ffi_type_pointer;
    height_slots[0] = &ctx_slot; height_slots[1] = &model_slot; height_slots[2] = &row_slot; height_slots[3] = &width_slot;
    cell_slots[0] = &ctx_slot; cell_slots[1] = &model_slot; cell_slots[2] = &row_slot; cell_slots[3] = &canvas_slot;
    if (ffi_prep_cif(&height_cif, FFI_DEFAULT_ABI, 4, &ffi_type_double, height_types) != FFI_OK) return 0;
    if (ffi_prep_cif(&cell_cif, FFI_DEFAULT_ABI, 4, &ffi_type_void, cell_types) != FFI_OK) return 0;
    return 1;
}

double bench_ffi_height(void *ctx, void *model, uint64_t row, double width) {
    double result = 0;
    ctx_slot = ctx; model_slot = model; row_slot = row; width_slot = width;
    ffi_call(&height_cif, height_fn, &result, height_slots);
    return result;
}

void bench_ffi_cell(void *ctx, void *model, uint64_t row, const void *canvas) {
    uint64_t ignored[2];
    ctx_slot = ctx; model_slot = model; row_slot = row; canvas_slot = (void *)canvas;
    ffi_call(&cell_cif, cell_fn, ignored, cell_slots);
}
