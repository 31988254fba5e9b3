# make deb: a Debian binary package made by CPack from the install rules
# (docs/install.md says why CPack rather than debhelper). Configured with
# CMAKE_INSTALL_PREFIX=/usr, so that the libraries go to lib/<multiarch>.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME caret-c)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "caret-c maintainers <maintainers@caret-c.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "chain-aware tracing and latency analysis for ROS 2")
# (the summary above is its first line; CPack indents the rest)
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "caret-c traces unmodified ROS 2 processes (Humble, Jazzy;
Cyclone DDS and Fast DDS) through LTTng-UST, with a tracer loaded by
LD_PRELOAD that can start recording at any moment, and turns the trace
into callback, message and end-to-end path latencies: the caret command
(record, check, latency, path, report, export, env), the tracer
libcaret.so and the analyzer's shared library libcaret-analyze.so with
its headers, and the Python package caret_c (caret_analyze's API over it).")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# the shared libraries' packages by name (dpkg-shlibdeps), and the session
# daemon, which `caret record` needs and no library names
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
# ldconfig by trigger, as Debian does it now (not from maintainer scripts)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_SOURCE_DIR}/packaging/debian/triggers
  ${CMAKE_SOURCE_DIR}/packaging/debian/postinst ${CMAKE_SOURCE_DIR}/packaging/debian/postrm)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "lttng-tools")
# python3 with numpy, pandas and PyYAML for the Python package caret_c
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "babeltrace2, python3, python3-numpy, python3-pandas, python3-yaml")
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/package)
include(CPack)
