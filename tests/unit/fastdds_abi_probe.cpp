// fastdds_abi_probe.cpp - the places src/trace/fastdds_abi.h gives (from
// which the tracer reads Fast DDS samples without Fast DDS's headers)
// against the Fast DDS headers installed: compiled and run by
// test_fastdds_abi.sh. A mismatch fails to compile or exits 1.
#include <cstddef>
#include <cstdio>
#include <cstring>

#include <fastdds/rtps/common/CacheChange.h>

extern "C" {
#include "fastdds_abi.h"
}

using eprosima::fastrtps::rtps::CacheChange_t;
using eprosima::fastrtps::rtps::EntityId_t;
using eprosima::fastrtps::rtps::GUID_t;
using eprosima::fastrtps::rtps::Time_t;

#pragma GCC diagnostic ignored "-Winvalid-offsetof" // CacheChange_t has a vtable
static_assert(offsetof(CacheChange_t, sourceTimestamp) == CT_FASTDDS_CHANGE_SOURCE_TIMESTAMP,
	"CacheChange_t::sourceTimestamp moved");
static_assert(offsetof(CacheChange_t, writerGUID) + offsetof(GUID_t, entityId) +
	offsetof(EntityId_t, value) + 3 == CT_FASTDDS_CHANGE_WRITER_KIND,
	"CacheChange_t::writerGUID.entityId.value[3] moved");
static_assert(sizeof(Time_t) == sizeof(struct ct_fastdds_time), "rtps::Time_t's size changed");
static_assert(offsetof(CacheChange_t, sequenceNumber) == CT_FASTDDS_CHANGE_SEQUENCE_NUMBER,
	"CacheChange_t::sequenceNumber moved");
static_assert(offsetof(eprosima::fastrtps::rtps::SequenceNumber_t, high) ==
	offsetof(struct ct_fastdds_sequence_number, high) &&
	offsetof(eprosima::fastrtps::rtps::SequenceNumber_t, low) ==
	offsetof(struct ct_fastdds_sequence_number, low) &&
	sizeof(eprosima::fastrtps::rtps::SequenceNumber_t) == sizeof(struct ct_fastdds_sequence_number),
	"rtps::SequenceNumber_t's layout changed");

int main()
{
	int failures = 0;
	// rtps::Time_t's private members, seen through the tracer's struct
	const int64_t stamps[] = { 1795540271669325452LL, 1000000000LL, 1999999999LL,
		1700000000123456789LL };
	for (int64_t ns : stamps) {
		CacheChange_t change;
		change.sourceTimestamp.from_ns(ns);
		struct ct_fastdds_time t;
		std::memcpy(&t, reinterpret_cast<const char *>(&change) +
			CT_FASTDDS_CHANGE_SOURCE_TIMESTAMP, sizeof t);
		if (t.seconds != change.sourceTimestamp.seconds() ||
		    t.nanosec != change.sourceTimestamp.nanosec() ||
		    t.fraction != change.sourceTimestamp.fraction() ||
		    int64_t(t.seconds) * 1000000000 + t.nanosec != ns) {
			std::printf("FAIL %lld: read %d s %u ns %u fraction\n", (long long)ns,
				t.seconds, t.nanosec, t.fraction);
			failures++;
		}
		// the tracer's check: the fraction of a second agrees with the ns
		uint64_t from_fraction = (uint64_t(t.fraction) * 1000000000u) >> 32;
		if (from_fraction + 1 < t.nanosec || from_fraction > uint64_t(t.nanosec) + 1) {
			std::printf("FAIL %lld: fraction %u gives %llu ns, not %u\n", (long long)ns,
				t.fraction, (unsigned long long)from_fraction, t.nanosec);
			failures++;
		}
	}
	// a user writer's kind and a built-in one's
	CacheChange_t change;
	change.writerGUID.entityId = EntityId_t(0x00000103);
	const unsigned char *bytes = reinterpret_cast<const unsigned char *>(&change);
	if (bytes[CT_FASTDDS_CHANGE_WRITER_KIND] != 0x03) {
		std::printf("FAIL user writer kind: 0x%02x\n", bytes[CT_FASTDDS_CHANGE_WRITER_KIND]);
		failures++;
	}
	change.writerGUID.entityId = eprosima::fastrtps::rtps::c_EntityId_SPDPWriter;
	if (!(bytes[CT_FASTDDS_CHANGE_WRITER_KIND] & CT_FASTDDS_BUILTIN_ENTITY)) {
		std::printf("FAIL built-in writer kind: 0x%02x\n", bytes[CT_FASTDDS_CHANGE_WRITER_KIND]);
		failures++;
	}
	std::printf("%s: Fast DDS layout as fastdds_abi.h states\n", failures ? "FAIL" : "ok");
	return failures ? 1 : 0;
}
