# Writes caret_version.h (cmake -P): the version, the git revision the
# build was made from ("unknown" outside a git checkout, as in a source
# tarball) and where the tracer is installed, relative to the prefix.
# Run at every build; the file changes only when its content does.
execute_process(COMMAND git -C "${SOURCE_DIR}" describe --always --dirty --abbrev=12
  OUTPUT_VARIABLE revision OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
if(failed OR revision STREQUAL "")
  set(revision "unknown")
endif()
set(content "/* made by cmake/version.cmake */
#define CARET_VERSION \"${VERSION}\"
#define CARET_GIT_REVISION \"${revision}\"
#define CARET_TRACER_INSTALLED \"${TRACER_RELPATH}\"
")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL content)
  file(WRITE "${OUT}" "${content}")
endif()
