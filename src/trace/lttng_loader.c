/* lttng_loader.c - see lttng_loader.h (libcaret.so's; lttng_linked.c is
 * the programs' that link the provider). */
#define _GNU_SOURCE
#include "lttng_loader.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lttng_room.h"

#define CT_PROBES_LIBRARY "libcaret-lttng.so"

_Atomic int ct_lttng_status = -1;

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* libcaret-lttng.so from libcaret.so's own directory. */
static bool load_probes(char *why, size_t why_size)
{
	Dl_info self;
	char path[PATH_MAX];
	if (!dladdr((void *)load_probes, &self) || !self.dli_fname) {
		snprintf(why, why_size, "cannot tell where libcaret.so is");
		return false;
	}
	const char *slash = strrchr(self.dli_fname, '/');
	int dir_len = slash ? (int)(slash - self.dli_fname) + 1 : 0;
	snprintf(path, sizeof path, "%.*s%s", dir_len, self.dli_fname, CT_PROBES_LIBRARY);
	/* never unloaded: LTTng-UST's threads and registered probes stay */
	if (!dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)) {
		snprintf(why, why_size, "%s", dlerror());
		return false;
	}
	return true;
}

static bool program_has_lttng_ust(void)
{
	void *ust = dlopen("liblttng-ust.so.1", RTLD_LAZY | RTLD_NOLOAD);
	if (ust)
		dlclose(ust);
	return ust != NULL;
}

static void decide(void)
{
	char why[512];
	bool ready = ct_lttng_room("/dev/shm", getuid(), why, sizeof why) &&
		load_probes(why, sizeof why);
	if (!ready)
		ct_debug("the tracer stays out of this process: %s%s", why,
			program_has_lttng_ust() ?
			" (the program loads liblttng-ust itself: LTTng-UST may fail in it all the same)" :
			"");
	atomic_store_explicit(&ct_lttng_status, ready, memory_order_release);
}

bool ct_lttng_decide(void)
{
	pthread_once(&once, decide);
	return atomic_load_explicit(&ct_lttng_status, memory_order_acquire) == 1;
}

/* As the process loads: a host without ROS activity gets LTTng-UST (or
 * not) at the same moment as with a linked liblttng-ust. */
__attribute__((constructor)) static void decide_at_load(void)
{
	ct_lttng_decide();
}
