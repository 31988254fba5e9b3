# Thin wrapper over CMake/CTest. See README.md.
BUILD_DIR      ?= build
ASAN_BUILD_DIR ?= build-asan
TSAN_BUILD_DIR ?= build-tsan
BUILD_TYPE     ?= RelWithDebInfo
JOBS           ?= $(shell nproc)
# four tests at once on two cores: the real-ROS tests mostly wait on
# their apps (a make test run takes about one core of CPU on average: 784 s
# of CPU in 786 s at -j4), and they hold on a busy machine (make test-busy);
# the builds inside tests (colcon, make deb) run at niceness 10
CTEST_JOBS     ?= 4

FUZZ_SECONDS   ?= 600

.PHONY: all deps build uplot install uninstall deb test test-busy test-slow test-asan test-tsan test-fuzz demo bench clean

all: build

deps:
	@scripts/deps.sh

build:
	@cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) >/dev/null
	@cmake --build $(BUILD_DIR) -j $(JOBS)

# uPlot, the report's chart library, embedded in caret at build time: npm
# ci installs it once from src/analyze/report/web/package-lock.json (make
# deps does too), which needs npm and the npm registry; CARET_UPLOT_DIR=DIR
# takes uPlot.iife.min.js and uPlot.min.css from DIR instead (a machine
# without either: docs/install.md).
UPLOT_JS       = src/analyze/report/web/node_modules/uplot/dist/uPlot.iife.min.js
CARET_UPLOT_DIR ?=
UPLOT_ARG      = $(if $(CARET_UPLOT_DIR),-DCARET_UPLOT_DIR=$(abspath $(CARET_UPLOT_DIR)))
uplot:
	@if [ -z "$(CARET_UPLOT_DIR)" ] && [ ! -f $(UPLOT_JS) ]; then \
	  command -v npm >/dev/null || { echo "make: uPlot, the report's chart library, is" \
	    "missing and npm is not installed: apt install npm, or CARET_UPLOT_DIR=DIR" \
	    "(docs/install.md)" >&2; exit 1; }; \
	  echo "make: npm ci in src/analyze/report/web (uPlot, the report's chart library)"; \
	  npm ci --prefix src/analyze/report/web --no-audit --no-fund --loglevel=error; \
	fi

# make install PREFIX=...: the command, the tracer, the analyzer's library
# and headers, pkg-config/CMake files, man pages, completion
# (docs/install.md), and only those: no tests, testbed, benchmarks or
# real-ROS test apps (CARET_BUILD_TESTS=OFF), in a build directory of its
# own configured for that prefix (caret env and caret record find the
# tracer relative to it); make test's build/ is left as it is. make
# uninstall removes what the last install wrote.
PREFIX         ?= /usr/local
INSTALL_BUILD_DIR ?= build-install
install: uplot
	@cmake -S . -B $(INSTALL_BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  -DCMAKE_INSTALL_PREFIX=$(PREFIX) -DCARET_BUILD_TESTS=OFF $(UPLOT_ARG) >/dev/null
	@cmake --build $(INSTALL_BUILD_DIR) -j $(JOBS)
	@cmake --install $(INSTALL_BUILD_DIR)

uninstall:
	@cmake --build $(INSTALL_BUILD_DIR) --target uninstall

# make deb: the Debian package (CPack) in $(DEB_BUILD_DIR)/package, built
# for /usr without the tests, then checked by lintian.
DEB_BUILD_DIR  ?= build-deb
deb: uplot
	@cmake -S . -B $(DEB_BUILD_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_INSTALL_PREFIX=/usr -DCARET_BUILD_TESTS=OFF -DCARET_DEB=ON $(UPLOT_ARG) >/dev/null
	@cmake --build $(DEB_BUILD_DIR) -j $(JOBS)
	@cd $(DEB_BUILD_DIR) && cpack >/dev/null
	@ls $(DEB_BUILD_DIR)/package/*.deb
	@lintian --fail-on error $(DEB_BUILD_DIR)/package/*.deb

# Unit and integration tests; slow ones have their own target.
test: deps build
	@ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(CTEST_JOBS) -LE slow

# The same suite while other work keeps both cores busy (scripts/busy.sh):
# slower, and it must pass.
test-busy: deps build
	@scripts/busy.sh -- ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(CTEST_JOBS) -LE slow

test-slow: deps build
	@ctest --test-dir $(BUILD_DIR) --output-on-failure -L slow

# The whole suite built with AddressSanitizer and UndefinedBehaviorSanitizer.
test-asan: deps
	@cmake -S . -B $(ASAN_BUILD_DIR) -DCMAKE_BUILD_TYPE=Debug -DCARET_SANITIZE=ON >/dev/null
	@cmake --build $(ASAN_BUILD_DIR) -j $(JOBS)
	@LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	  ASAN_OPTIONS=verify_asan_link_order=0 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir $(ASAN_BUILD_DIR) --output-on-failure -j $(CTEST_JOBS) -LE slow

# The tracer's stress test, the native reader's two threads (its
# differential, damaged-trace and lean-load tests) and the report's three
# (caret report and export of the real traces) built with ThreadSanitizer.
TSAN_READER_TESTS = test_ctf_native_differential|test_ctf_native_solo|test_ctf_native_damaged|test_lean_load_differential|test_lean_load_solo|test_report_real
test-tsan: deps
	@cmake -S . -B $(TSAN_BUILD_DIR) -DCMAKE_BUILD_TYPE=Debug -DCARET_TSAN=ON >/dev/null
	@cmake --build $(TSAN_BUILD_DIR) -j $(JOBS) --target tracer_stress tb_event_counts \
	  control_client ctf_reader_diff lean_diff caret_cli
	@TSAN_OPTIONS=suppressions=$(CURDIR)/tests/tsan.supp:die_after_fork=0 \
	  ctest --test-dir $(TSAN_BUILD_DIR) --output-on-failure -L stress
	@TSAN_OPTIONS=suppressions=$(CURDIR)/tests/tsan.supp:die_after_fork=0:halt_on_error=1 \
	  ctest --test-dir $(TSAN_BUILD_DIR) --output-on-failure -R '$(TSAN_READER_TESTS)'

# The libFuzzer targets (clang), each run FUZZ_SECONDS (docs/reliability.md);
# make test runs them briefly (test_fuzz_short).
test-fuzz: deps
	@scripts/fuzz.sh $(FUZZ_SECONDS)

demo: deps build
	@scripts/demo.sh $(BUILD_DIR)

# Benchmarks: ratios against a baseline measured in the same run.
bench: deps build
	@bench/tracer/run.sh $(BUILD_DIR)
	@bench/tracer/reception.sh $(BUILD_DIR)
	@bench/record/run.sh $(BUILD_DIR)
	@bench/analyze/run.sh $(BUILD_DIR)
	@bench/real/run.sh $(BUILD_DIR)
	@bench/tf/run.sh $(BUILD_DIR)
	@bench/report/run.sh $(BUILD_DIR)
	@bench/python/run.sh $(BUILD_DIR)
	@bench/live/run.sh $(BUILD_DIR)

clean:
	rm -rf $(BUILD_DIR) $(ASAN_BUILD_DIR) $(TSAN_BUILD_DIR) $(DEB_BUILD_DIR) $(INSTALL_BUILD_DIR) \
	  build-fuzz
