/* presence.c - the traced processes coming and going while caret live
 * watches (state.h): the recorder hears each one's Status about once a
 * second; one that starts being heard after the first look has joined,
 * one silent for a few seconds has gone (it ended, or its DDS left), and
 * each change is said once, with the process named by its program and
 * nodes as the looks saw them. With --watch (no recorder here) the
 * processes are those of the hosts' chunks and none is followed. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state.h"

/* The process of that pid (with --watch, on that host: two hosts' pids
 * can be equal), added when new; NULL out of memory. */
static struct live_process *known(struct live *L, int64_t pid, const char *host)
{
	host = host ? host : "";
	for (size_t i = 0; i < L->n_known; i++)
		if (L->known[i].pid == pid && !strncmp(L->known[i].host, host,
			sizeof L->known[i].host - 1))
			return &L->known[i];
	if (L->n_known == L->cap_known) {
		size_t cap = L->cap_known ? 2 * L->cap_known : 16;
		struct live_process *grown = realloc(L->known, cap * sizeof *grown);
		if (!grown)
			return NULL;
		L->known = grown;
		L->cap_known = cap;
	}
	struct live_process *p = &L->known[L->n_known++];
	memset(p, 0, sizeof *p);
	p->pid = pid;
	snprintf(p->host, sizeof p->host, "%s", host);
	return p;
}

/* Whether a host --watch follows sends still. */
static bool host_sends(const struct live *L, const char *name)
{
	for (size_t i = 0; name && i < L->n_hosts; i++)
		if (!strcmp(L->hosts[i].name, name))
			return L->hosts[i].active;
	return false;
}

void live_presence_name(struct live *L, const ca_trace *t)
{
	const ca_architecture *a = ca_trace_architecture(t);
	for (size_t i = 0; i < a->n_processes; i++) {
		const ca_process *x = &a->processes[i];
		struct live_process *p = known(L, x->pid, L->recorder ? NULL : x->host);
		if (!p)
			continue;
		ca_process_label(a, i, p->label, sizeof p->label);
		snprintf(p->program, sizeof p->program, "%s", x->procname ? x->procname : "");
		/* --watch: no Status heard here; a process is up while its host sends */
		if (!L->recorder)
			p->live = host_sends(L, x->host);
	}
}

void live_presence_hosts(struct live *L)
{
	for (size_t i = 0; !L->recorder && i < L->n_known; i++)
		L->known[i].live = host_sends(L, L->known[i].host);
}

void live_presence_follow(struct live *L, uint64_t until)
{
	struct cr_heard_process h;
	bool first = L->looks <= 1; /* those there at the start joined nothing */
	size_t live = 0, gone = 0;
	for (size_t i = 0; L->recorder && cr_record_process(L->recorder, i, &h); i++) {
		struct live_process *p = known(L, h.pid, NULL);
		if (!p)
			break;
		if (!p->label[0]) /* not in a look yet: its pid and first node */
			snprintf(p->label, sizeof p->label, "pid %" PRId64 "%s%s%s", h.pid,
				*h.first_node ? " (" : "", h.first_node, *h.first_node ? ")" : "");
		if (h.live != p->live && !(first && h.live))
			live_print_process(L, p, h.live, until);
		p->live = h.live;
		live += h.live;
		gone += !h.live;
	}
	if (L->recorder) {
		L->processes = live;
		L->gone = gone;
	}
}

void live_presence_free(struct live *L)
{
	free(L->known);
	L->known = NULL;
	L->n_known = L->cap_known = 0;
}
