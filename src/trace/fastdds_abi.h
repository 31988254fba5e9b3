/*
 * fastdds_abi.h - what the tracer reads of Fast DDS 2.x objects it is
 * handed, without Fast DDS's C++ headers: the symbol it interposes and
 * the places in a CacheChange_t (a writer's sample) of its source
 * timestamp and writer's entity kind. Read from Fast DDS 2.9.1's headers;
 * tests/unit/fastdds_abi_probe.cpp checks them against the headers
 * installed, and the hook checks every timestamp it reads (see
 * hooks_fastdds.c) so that another layout is noticed, never recorded.
 */
#ifndef CT_FASTDDS_ABI_H
#define CT_FASTDDS_ABI_H

#include <stdint.h>

/* void eprosima::fastrtps::rtps::WriterHistory::set_fragments(CacheChange_t *):
 * called (through the PLT) for every sample a writer adds to its history,
 * once its sequence number and source timestamp are set. */
#define CT_FASTDDS_SET_FRAGMENTS \
	"_ZN8eprosima8fastrtps4rtps13WriterHistory13set_fragmentsEPNS1_13CacheChange_tE"

/* CacheChange_t::writerGUID.entityId.value[3]: the kind of the writer.
 * User-defined writers are 0x02/0x03; built-in (discovery) ones 0xc2/0xc3. */
#define CT_FASTDDS_CHANGE_WRITER_KIND 27
#define CT_FASTDDS_BUILTIN_ENTITY 0xc0

/* CacheChange_t::sequenceNumber, an rtps::SequenceNumber_t. */
#define CT_FASTDDS_CHANGE_SEQUENCE_NUMBER 48
struct ct_fastdds_sequence_number {
	int32_t high;
	uint32_t low;
};

/* CacheChange_t::sourceTimestamp, an rtps::Time_t. */
#define CT_FASTDDS_CHANGE_SOURCE_TIMESTAMP 108

/* rtps::Time_t: seconds, the fraction of a second in 1/2^32 s (the wire's
 * form) and the same fraction in ns; Fast DDS keeps both in step. */
struct ct_fastdds_time {
	int32_t seconds;
	uint32_t fraction;
	uint32_t nanosec;
};

#endif
