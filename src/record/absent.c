/* absent.c - see absent.h. */
#define _GNU_SOURCE
#include "absent.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lttng/lttng.h>

#include "plural.h"

#define MAX_PIDS 64
#define PIDS_SAID 8 /* the first ones; then "..." */

struct pids {
	int pid[MAX_PIDS];
	size_t n;
};

static bool has(const struct pids *p, int pid)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->pid[i] == pid)
			return true;
	return false;
}

static void add(struct pids *p, int pid)
{
	if (!has(p, pid) && p->n < MAX_PIDS)
		p->pid[p->n++] = pid;
}

/* A process of that real group (the session's tracker follows it). */
static bool in_group(int pid, int vgid)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/status", pid);
	FILE *f = fopen(path, "r");
	int gid = -1;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "Gid: %d", &gid) == 1)
			break;
	if (f)
		fclose(f);
	return gid == vgid;
}

/* The processes registered with the session daemon: those with the
 * tracer's provider (ros2_caret), and those with ros2_tracing's alone. */
static void registered(int track_vgid, struct pids *tracer, struct pids *plain)
{
	struct lttng_domain domain = { .type = LTTNG_DOMAIN_UST, .buf_type = LTTNG_BUFFER_PER_UID };
	struct lttng_handle *h = lttng_create_handle(NULL, &domain);
	struct lttng_event *events = NULL;
	int n = h ? lttng_list_tracepoints(h, &events) : -1;
	struct pids ros = { .n = 0 }, outside = { .n = 0 };
	for (int i = 0; i < n; i++) {
		int pid = events[i].pid;
		if (has(&outside, pid))
			continue;
		if (track_vgid >= 0 && !has(tracer, pid) && !has(&ros, pid) &&
		    !in_group(pid, track_vgid)) {
			add(&outside, pid);
			continue;
		}
		if (!strncmp(events[i].name, "ros2_caret:", 11))
			add(tracer, pid);
		else if (!strncmp(events[i].name, "ros2:", 5))
			add(&ros, pid);
	}
	for (size_t i = 0; i < ros.n; i++)
		if (!has(tracer, ros.pid[i]))
			add(plain, ros.pid[i]);
	free(events);
	lttng_destroy_handle(h);
}

/* The DDS participants the recorder's has discovered on its domain. */
static size_t other_participants(dds_entity_t participant)
{
	dds_entity_t reader = dds_create_reader(participant, DDS_BUILTIN_TOPIC_DCPSPARTICIPANT,
		NULL, NULL);
	if (reader < 0)
		return 0;
	dds_guid_t self;
	bool known = dds_get_guid(participant, &self) == DDS_RETCODE_OK;
	void *samples[256] = { NULL };
	dds_sample_info_t infos[256];
	dds_return_t n = dds_read(reader, samples, infos, 256, 256);
	size_t others = 0;
	for (dds_return_t i = 0; i < n; i++) {
		const dds_builtintopic_participant_t *p = samples[i];
		others += infos[i].valid_data && !(known && !memcmp(&p->key, &self, sizeof self));
	}
	if (n > 0)
		dds_return_loan(reader, samples, n);
	dds_delete(reader);
	return others;
}

/* "pid 1, 2, 3" (the first few, then "..."). */
static void say_pids(const struct pids *p, char *out, size_t size)
{
	size_t used = (size_t)snprintf(out, size, "pid");
	for (size_t i = 0; i < p->n && i < PIDS_SAID && used < size; i++)
		used += (size_t)snprintf(out + used, size - used, "%s %d", i ? "," : "", p->pid[i]);
	if (p->n > PIDS_SAID && used < size)
		snprintf(out + used, size - used, ", ...");
}

void cr_explain_absence(dds_entity_t participant, int domain, int track_vgid, char *why,
	size_t size)
{
	struct pids tracer = { .n = 0 }, plain = { .n = 0 };
	char pids[128];
	registered(track_vgid, &tracer, &plain);
	size_t others = other_participants(participant);
	if (tracer.n) {
		say_pids(&tracer, pids, sizeof pids);
		snprintf(why, size, "%zu %s with libcaret.so %s on this machine (%s) but none "
			"answered on ROS_DOMAIN_ID %d: they are on another domain or discovery range "
			"(give caret the applications' ROS_DOMAIN_ID, ROS_LOCALHOST_ONLY or "
			"ROS_AUTOMATIC_DISCOVERY_RANGE, CYCLONEDDS_URI)", tracer.n,
			caret_plural(tracer.n, "process", "processes"), tracer.n == 1 ? "runs" : "run",
			pids, domain);
	} else if (plain.n) {
		say_pids(&plain, pids, sizeof pids);
		snprintf(why, size, "no traced process answered on ROS_DOMAIN_ID %d: %zu ROS 2 %s "
			"run without libcaret.so on this machine (%s); start them with the tracer "
			"preloaded (eval \"$(caret env)\" before launching them)", domain, plain.n,
			caret_plural(plain.n, "process", "processes"), pids);
	} else if (others) {
		snprintf(why, size, "no traced process answered on ROS_DOMAIN_ID %d, where %zu "
			"other DDS %s: ROS 2 processes without libcaret.so, or on another host? "
			"(start them with the tracer preloaded: eval \"$(caret env)\")", domain, others,
			others == 1 ? "participant is" : "participants are");
	} else {
		snprintf(why, size, "no traced process answered on ROS_DOMAIN_ID %d, and no ROS 2 "
			"process runs here or on that domain: start the applications with libcaret.so "
			"preloaded first (eval \"$(caret env)\"), or record them from their start "
			"(--immediate, or -- CMD)", domain);
	}
}
