/*
 * hooks_fork.c - fork(), interposed so that a process traced by LTTng-UST
 * can fork safely: LTTng-UST's locks (its RCU registry among them) are taken
 * before the fork and released on both sides, as liblttng-ust-fork.so does.
 * Without this a child can inherit a lock held by another thread and hang
 * at its first event. When liblttng-ust-fork.so is preloaded too, it does
 * this already, and the hook only forwards; so it does in a process without
 * LTTng-UST and where the tracer stays out (lttng_loader.h).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <lttng/ust-fork.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "lttng_loader.h"
#include "original.h"
#include "tracer.h"

static bool is_lttng_fork_wrapper(void *fn)
{
	Dl_info info;
	return dladdr(fn, &info) && info.dli_fname &&
	       strstr(info.dli_fname, "liblttng-ust-fork");
}

/* LTTng-UST's fork protocol, from liblttng-ust.so.1 if the process has it
 * (linked by the program, or loaded with the tracer's probes). Found once
 * and kept (liblttng-ust is never unloaded); until then looked for at each
 * fork, as a library the program loads later may bring it. */
struct fork_protocol {
	__typeof__(&lttng_ust_before_fork) before;
	__typeof__(&lttng_ust_after_fork_parent) after_parent;
	__typeof__(&lttng_ust_after_fork_child) after_child;
};

static bool lttng_fork_protocol(struct fork_protocol *p)
{
	static _Atomic(__typeof__(&lttng_ust_before_fork)) before;
	static _Atomic(__typeof__(&lttng_ust_after_fork_parent)) after_parent;
	static _Atomic(__typeof__(&lttng_ust_after_fork_child)) after_child;
	p->before = atomic_load_explicit(&before, memory_order_acquire);
	if (p->before) {
		p->after_parent = atomic_load_explicit(&after_parent, memory_order_relaxed);
		p->after_child = atomic_load_explicit(&after_child, memory_order_relaxed);
		return true;
	}
	void *ust = dlopen("liblttng-ust.so.1", RTLD_LAZY | RTLD_NOLOAD);
	if (!ust)
		return false;
	p->before = (__typeof__(p->before))dlsym(ust, "lttng_ust_before_fork");
	p->after_parent = (__typeof__(p->after_parent))dlsym(ust, "lttng_ust_after_fork_parent");
	p->after_child = (__typeof__(p->after_child))dlsym(ust, "lttng_ust_after_fork_child");
	dlclose(ust);
	if (!p->before || !p->after_parent || !p->after_child)
		return false;
	/* every thread finds the same; before last, as the others' guard */
	atomic_store_explicit(&after_parent, p->after_parent, memory_order_relaxed);
	atomic_store_explicit(&after_child, p->after_child, memory_order_relaxed);
	atomic_store_explicit(&before, p->before, memory_order_release);
	return true;
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
	/* not ct_lttng_ready(): liblttng-ust forks in its constructor, while
	 * the decision is being made */
	if (wrapped || atomic_load_explicit(&ct_lttng_status, memory_order_acquire) == 0)
		return original();
	int saved = errno;
	struct fork_protocol lttng;
	bool protocol = lttng_fork_protocol(&lttng);
	errno = saved;
	if (!protocol)
		return original();

	sigset_t sigset;
	lttng.before(&sigset);
	pid_t pid = original();
	saved = errno;
	if (pid == 0)
		lttng.after_child(&sigset);
	else
		lttng.after_parent(&sigset);
	errno = saved;
	return pid;
}
