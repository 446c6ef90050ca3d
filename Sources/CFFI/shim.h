// libffi from Debian's libffi-dev (Scripts/setup installs it). The header lives in the multiarch include dir.
#include <ffi.h>

// Swift cannot take the address of an imported C global outside a call, so the ffi_type descriptors
// the invoker needs are reached through these accessors.
static inline ffi_type *floor_ffi_void(void) { return &ffi_type_void; }
static inline ffi_type *floor_ffi_uint8(void) { return &ffi_type_uint8; }
static inline ffi_type *floor_ffi_sint32(void) { return &ffi_type_sint32; }
static inline ffi_type *floor_ffi_uint32(void) { return &ffi_type_uint32; }
static inline ffi_type *floor_ffi_sint64(void) { return &ffi_type_sint64; }
static inline ffi_type *floor_ffi_uint64(void) { return &ffi_type_uint64; }
static inline ffi_type *floor_ffi_double(void) { return &ffi_type_double; }
static inline ffi_type *floor_ffi_pointer(void) { return &ffi_type_pointer; }
