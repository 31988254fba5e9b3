/*
 * hooks_fork.c - fork(), interposed so that a process traced by LTTng-UST
 * can fork safely: LTTng-UST's locks (its RCU registry among them) are taken
 * before the fork and released on both sides, as liblttng-ust-fork.so does.
 * Without this a child can inherit a lock held by another thread and hang
 * at its first event. When liblttng-ust-fork.so is preloaded too, it does
 * this already, and the hook only forwards.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <lttng/ust-fork.h>
#include <string.h>
#include <unistd.h>

#include "original.h"
#include "tracer.h"

static bool is_lttng_fork_wrapper(void *fn)
{
	Dl_info info;
	return dladdr(fn, &info) && info.dli_fname &&
	       strstr(info.dli_fname, "liblttng-ust-fork");
}

CT_EXPORT pid_t fork(void)
{
	CT_ORIGINAL(pid_t (*)(void), "fork");
	if (!original) {
		errno = ENOSYS;
		return -1;
	}
	static int wrapped = -1; /* benign race: every thread computes the same */
	if (wrapped < 0)
		wrapped = is_lttng_fork_wrapper((void *)original);
	if (wrapped)
		return original();

	sigset_t sigset;
	lttng_ust_before_fork(&sigset);
	pid_t pid = original();
	int saved = errno;
	if (pid == 0)
		lttng_ust_after_fork_child(&sigset);
	else
		lttng_ust_after_fork_parent(&sigset);
	errno = saved;
	return pid;
}
