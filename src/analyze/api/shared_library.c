/*
 * shared_library.c - the one source CMake needs to make libcaret-analyze.so,
 * which is the static analyzer linked whole (src/analyze/CMakeLists.txt).
 * It checks that the public headers stand alone, as a user includes them.
 */
#include "caret/analyze.h"
#include "caret/error.h"
