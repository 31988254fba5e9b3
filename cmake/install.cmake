# make install (docs/install.md): the caret command, the tracer, the
# analyzer's shared library with its headers, pkg-config and CMake package
# files, man pages made from --help, and bash completion.
include(CMakePackageConfigHelpers)
option(CARET_DEB "Configure for the Debian package (make deb): its documents, man pages compressed" OFF)

# The tracer is an LD_PRELOAD module, not a library to link against: it
# goes in a directory of its own, out of the linker's path.
set(CARET_TRACER_DIR ${CMAKE_INSTALL_LIBDIR}/caret)
# libcaret-lttng.so beside it: libcaret.so loads it from its own directory
install(TARGETS caret caret_lttng LIBRARY DESTINATION ${CARET_TRACER_DIR})
install(TARGETS caret_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS caret_analyze_shared EXPORT caretTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES include/caret/analyze.h include/caret/error.h include/caret/export.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/caret)

# the Python package caret_c (python/, docs/python.md): where Debian's
# python3 looks, /usr/lib/python3/dist-packages for the package (prefix
# /usr), PREFIX/lib/python3.X/dist-packages otherwise (on its path for
# /usr/local; PYTHONPATH for another prefix); _installed.py tells it where
# the library is, relative to itself
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(caret_python_default lib/python3/dist-packages)
else()
  execute_process(COMMAND /usr/bin/python3 -c
    "import sys; print('%d.%d' % sys.version_info[:2])"
    OUTPUT_VARIABLE caret_python_version OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(caret_python_default lib/python${caret_python_version}/dist-packages)
endif()
set(CARET_PYTHON_DIR ${caret_python_default} CACHE STRING
  "where make install puts the Python package caret_c (relative to the prefix)")
file(RELATIVE_PATH caret_python_to_lib /p/${CARET_PYTHON_DIR}/caret_c
  /p/${CMAKE_INSTALL_LIBDIR}/libcaret-analyze.so.0)
file(WRITE ${CMAKE_BINARY_DIR}/packaging/caret_c_installed.py
  "# written by make install: libcaret-analyze.so.0 relative to this package\n"
  "LIBRARY_RELATIVE = '${caret_python_to_lib}'\n")
install(DIRECTORY python/caret_c DESTINATION ${CARET_PYTHON_DIR}
  FILES_MATCHING PATTERN "*.py" PATTERN "*.js" PATTERN "*.css" PATTERN "__pycache__" EXCLUDE)
# uPlot, inlined into the HTML plots of caret_c.plot (as into caret report)
install(FILES ${CARET_UPLOT_DIR}/uPlot.iife.min.js ${CARET_UPLOT_DIR}/uPlot.min.css
  DESTINATION ${CARET_PYTHON_DIR}/caret_c/plot/web/uplot)
install(FILES ${CMAKE_BINARY_DIR}/packaging/caret_c_installed.py
  DESTINATION ${CARET_PYTHON_DIR}/caret_c RENAME _installed.py)

# find_package(caret) gives caret::analyze
set(caret_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/caret)
install(EXPORT caretTargets NAMESPACE caret:: FILE caretTargets.cmake
  DESTINATION ${caret_cmake_dir})
configure_package_config_file(packaging/caretConfig.cmake.in
  ${CMAKE_BINARY_DIR}/packaging/caretConfig.cmake INSTALL_DESTINATION ${caret_cmake_dir})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/packaging/caretConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/packaging/caretConfig.cmake
  ${CMAKE_BINARY_DIR}/packaging/caretConfigVersion.cmake DESTINATION ${caret_cmake_dir})

# pkg-config --cflags --libs caret-analyze; the prefix found from where
# the file is, so that an install moved (DESTDIR, --prefix) stays right
string(REGEX REPLACE "[^/]+" ".." caret_pc_up "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
configure_file(packaging/caret-analyze.pc.in ${CMAKE_BINARY_DIR}/packaging/caret-analyze.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/packaging/caret-analyze.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# man pages: caret(1) and caret-VERB(1), from the same text as --help
# (gzipped for the Debian package)
set(caret_man_dir ${CMAKE_BINARY_DIR}/man)
set(caret_man_first ${caret_man_dir}/caret.1)
set(caret_man_gzip)
if(CARET_DEB)
  set(caret_man_first ${caret_man_dir}/caret.1.gz)
  set(caret_man_gzip --gzip)
endif()
add_custom_command(OUTPUT ${caret_man_first}
  COMMAND python3 ${CMAKE_SOURCE_DIR}/packaging/man_pages.py $<TARGET_FILE:caret_cli>
    ${caret_man_dir} ${PROJECT_VERSION} ${caret_man_gzip}
  DEPENDS caret_cli ${CMAKE_SOURCE_DIR}/packaging/man_pages.py
  COMMENT "Writing the man pages from caret's --help" VERBATIM)
add_custom_target(caret_man ALL DEPENDS ${caret_man_first})
install(DIRECTORY ${caret_man_dir}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
  FILES_MATCHING PATTERN "*.1" PATTERN "*.1.gz")

install(FILES packaging/caret.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
  RENAME caret)

# make uninstall: what the last install wrote (install_manifest.txt)
add_custom_target(uninstall
  COMMAND ${CMAKE_COMMAND} -DMANIFEST=${CMAKE_BINARY_DIR}/install_manifest.txt
    -P ${CMAKE_SOURCE_DIR}/cmake/uninstall.cmake VERBATIM)

# the Debian package's own documents: copyright, changelog (compressed, as
# Debian wants them); its man pages compressed too (CARET_COMPRESS_MAN)
if(CARET_DEB)
  set(caret_doc ${CMAKE_INSTALL_DATADIR}/doc/caret-c)
  install(FILES packaging/debian/copyright DESTINATION ${caret_doc})
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/packaging/changelog.gz
    COMMAND gzip -9n -c ${CMAKE_SOURCE_DIR}/packaging/debian/changelog
      > ${CMAKE_BINARY_DIR}/packaging/changelog.gz
    DEPENDS ${CMAKE_SOURCE_DIR}/packaging/debian/changelog)
  add_custom_target(caret_changelog ALL DEPENDS ${CMAKE_BINARY_DIR}/packaging/changelog.gz)
  install(FILES ${CMAKE_BINARY_DIR}/packaging/changelog.gz DESTINATION ${caret_doc})
  include(cmake/package.cmake)
endif()
