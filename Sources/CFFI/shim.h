// libffi from Debian's libffi-dev (Scripts/setup installs it). The header lives in the multiarch include dir.
#include <ffi.h>
