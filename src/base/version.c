/* The library's version (cuzk/version.h). */
#include "cuzk/version.h"

const char *cuzk_version(void) { return CUZK_VERSION_STRING; }
