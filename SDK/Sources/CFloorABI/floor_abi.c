// SwiftPM needs one source file in a C target; the ABI itself is header-only (include/floor_abi.h).
#include "floor_abi.h"
