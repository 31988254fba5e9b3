/*
 * fake_fastrtps.c - a stand-in for libfastrtps in test_tracer_fastdds: it
 * defines WriterHistory::set_fragments under its C++ name and calls it
 * through the PLT when a "writer" adds a sample, as Fast DDS 2.x does once
 * the sample's source timestamp is set. Loaded with dlopen(RTLD_LOCAL), as
 * rmw_implementation loads the rmw and Fast DDS with it.
 */
#define SET_FRAGMENTS _ZN8eprosima8fastrtps4rtps13WriterHistory13set_fragmentsEPNS1_13CacheChange_tE

#define EXPORT __attribute__((visibility("default")))

EXPORT void SET_FRAGMENTS(void *history, void *change);
EXPORT void fake_add_sample(void *change);
EXPORT int fake_set_fragments_calls(void);

static int calls;

void SET_FRAGMENTS(void *history, void *change)
{
	(void)history;
	(void)change;
	calls++;
}

void fake_add_sample(void *change)
{
	SET_FRAGMENTS((void *)0, change);
}

int fake_set_fragments_calls(void)
{
	return calls;
}
