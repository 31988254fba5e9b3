# dds-loopback.sh - sourced by `make demo` and the benchmarks: Cyclone DDS
# on the loopback interface only, without multicast (cyclonedds-loopback.xml),
# so their DDS traffic never leaves this machine. (CTest sets the same for
# every test: tests/CMakeLists.txt.)
export CYCLONEDDS_URI="file://$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/cyclonedds-loopback.xml"
