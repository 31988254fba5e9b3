# dds-loopback.sh - sourced by `make demo` and the benchmarks: Cyclone DDS
# on the loopback interface only, without multicast (cyclonedds-loopback.xml),
# and Fast DDS on it too (fastdds-loopback.xml), so their DDS traffic never
# leaves this machine. (CTest sets the same for every test:
# tests/CMakeLists.txt.)
_dds_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export CYCLONEDDS_URI="file://$_dds_dir/cyclonedds-loopback.xml"
export FASTRTPS_DEFAULT_PROFILES_FILE="$_dds_dir/fastdds-loopback.xml"
unset _dds_dir
