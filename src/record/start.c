/* start.c - the traced processes of the domain found, told to record (End,
 * then Start) and waited for until every one records (recorder.h). */
#include <inttypes.h>
#include <stdio.h>

#include "absent.h"
#include "clock.h"
#include "plural.h"
#include "recorder.h"

/* A tracer's Start reader is discovered within this on one host (Cyclone
 * DDS and Fast DDS answer a new participant at once); across hosts,
 * within a few announcements. */
#define DISCOVERY_NS 3000000000LL
/* The readers found stop changing for this long: every one is there. */
#define SETTLED_NS 300000000LL
/* A process still in WAIT this long after Start is sent Start again. */
#define RESTART_NS 1500000000LL

static int64_t since(int64_t t)
{
	return caret_monotonic_ns() - t;
}

/* The readers matched with writer, once they stop changing (up to 2 s). */
static void wait_for_readers(dds_entity_t writer)
{
	dds_publication_matched_status_t st;
	uint32_t last = 0;
	int64_t began = caret_monotonic_ns(), stable_since = began;
	while (since(began) < 2000000000LL && !cr_stop_asked()) {
		if (dds_get_publication_matched_status(writer, &st) == 0 && st.current_count != last) {
			last = st.current_count;
			stable_since = caret_monotonic_ns();
		}
		if (last > 0 && since(stable_since) > SETTLED_NS)
			break;
		caret_sleep_ms(20);
	}
}

/* The Start readers matched with ours: one a tracer. */
static uint32_t start_readers(const struct recorder *r)
{
	dds_publication_matched_status_t m = { 0 };
	dds_get_publication_matched_status(r->ep.start, &m);
	return m.current_count;
}

static void send_start(struct recorder *r)
{
	cc_start s = { .recording_frequency = r->o->frequency, .ignore_nodes = "",
		.ignore_topics = "", .select_nodes = "", .select_topics = "" };
	dds_write(r->ep.start, &s);
	r->start_sent = caret_monotonic_ns();
}

void cr_send_end(struct recorder *r)
{
	cc_end e = { 0 };
	wait_for_readers(r->ep.end);
	dds_write(r->ep.end, &e);
}

/* --immediate: processes started after the session begin in RECORD;
 * one found waiting (it ran before: a script written for the original's
 * --immediate) is told to start, as it is seen, without holding the
 * recording for it (again after 1.5 s for one that missed it). */
void cr_start_waiting(struct recorder *r)
{
	if (cr_processes_tally(r->procs).wait && since(r->start_sent) > RESTART_NS)
		send_start(r);
}

/* The tracers' Start readers, found as discovery finds them: once they
 * stop changing, or after the discovery time (--wait when shorter);
 * the progress line says what it looks for. How many. */
static uint32_t discover(struct recorder *r)
{
	int64_t began = caret_monotonic_ns(), settled = began;
	int64_t limit = cr_after(0, r->o->wait_timeout);
	char doing[96];
	uint32_t found = 0;
	snprintf(doing, sizeof doing, "looking for traced processes on ROS_DOMAIN_ID %d",
		cc_domain_from_env());
	limit = limit > 0 && limit < DISCOVERY_NS ? limit : DISCOVERY_NS;
	while (!cr_stop_asked() && since(began) < limit) {
		uint32_t n = start_readers(r);
		if (n != found) {
			found = n;
			settled = caret_monotonic_ns();
		}
		if (found && since(settled) > SETTLED_NS)
			break;
		cr_show_progress(r, doing, (double)since(began) / 1e9);
		caret_sleep_ms(20);
	}
	cr_end_progress(r);
	return found;
}

int cr_find_processes(struct recorder *r)
{
	char why[1024];
	if (discover(r))
		return 0;
	if (cr_stop_asked())
		return cr_fail(r, "stopped while looking for the traced processes on ROS_DOMAIN_ID "
			"%d (none found): nothing recorded", cc_domain_from_env());
	cr_explain_absence(r->ep.participant, cc_domain_from_env(), r->o->track_vgid, why,
		sizeof why);
	return cr_fail(r, "%s", why);
}

/* When the last process entered RECORD. */
static int64_t last_transition(const struct recorder *r)
{
	int64_t last = r->start_sent;
	for (size_t i = 0; i < cr_processes_count(r->procs); i++)
		if (cr_processes_at(r->procs, i)->recording_since > last)
			last = cr_processes_at(r->procs, i)->recording_since;
	return last;
}

/* Ctrl-C before every process recorded: the processes back to WAIT, no
 * trace kept (it would hold a part of their replay). */
static int interrupted(struct recorder *r, struct cr_tally t)
{
	cr_send_end(r);
	r->remove_output = true;
	return cr_fail(r, "stopped while waiting for the processes to record (%zu of %zu "
		"recording): nothing kept", t.record, t.live);
}

/* --wait ran out: the laggards named, the recording goes on without them;
 * with none that said its state, there is nothing to record (1). */
static int out_of_time(struct recorder *r, struct cr_tally t, uint32_t readers)
{
	cr_end_progress(r);
	if (!t.live) {
		cr_send_end(r);
		r->remove_output = true;
		return cr_fail(r, "%" PRIu32 " traced %s found on ROS_DOMAIN_ID %d, none said its "
			"state (Status) in %.0f s: nothing recorded", readers,
			caret_plural(readers, "process", "processes"), cc_domain_from_env(),
			r->o->wait_timeout);
	}
	for (size_t i = 0; i < cr_processes_count(r->procs); i++) {
		const struct cr_process *p = cr_processes_at(r->procs, i);
		if (p->state != CC_RECORD)
			CR_SAY(r, "%s (pid %" PRId64 ", %s) still %s after %.0f s\n", p->name, p->pid,
				p->first_node[0] ? p->first_node : "no node", cc_state_name(p->state),
				r->o->wait_timeout);
	}
	return 0;
}

/* Until every process records (as many as there are Start readers), Ctrl-C
 * or --wait: 0 to record, or the exit status. */
static int wait_for_record(struct recorder *r)
{
	int64_t deadline = cr_after(r->start_sent, r->o->wait_timeout);
	int resent = 0;
	for (;;) {
		cr_processes_update(r->procs, false);
		struct cr_tally t = cr_processes_tally(r->procs);
		uint32_t readers = start_readers(r);
		char doing[64];
		snprintf(doing, sizeof doing, "waiting for %zu to record",
			t.live > readers ? t.live : readers);
		cr_show_progress(r, doing, (double)since(r->start_sent) / 1e9);
		if (cr_stop_asked())
			return interrupted(r, t);
		if (t.live && t.record == t.live && t.live >= readers) {
			cr_end_progress(r);
			CR_SAY(r, "%s %zu %s recording %.2f s after Start\n", t.live == 1 ? "the" :
				"all", t.live, caret_plural(t.live, "process", "processes"),
				(double)(last_transition(r) - r->start_sent) / 1e9);
			return 0;
		}
		/* A process that joined after the Start (or missed it); those
		 * recording already ignore a Start from the same recorder. */
		if (t.wait && resent < 3 && since(r->start_sent) > RESTART_NS) {
			send_start(r);
			resent++;
		}
		if (caret_monotonic_ns() > deadline)
			return out_of_time(r, t, readers);
		caret_sleep_ms(20);
	}
}

int cr_start_processes(struct recorder *r)
{
	/* A tracer ignores Start while it records (for a recorder that died,
	 * say): End first, so every process starts from WAIT. Nothing else
	 * records now: that was checked before the session was made. */
	cr_send_end(r);
	dds_wait_for_acks(r->ep.end, DDS_SECS(1));
	send_start(r);
	return wait_for_record(r);
}
