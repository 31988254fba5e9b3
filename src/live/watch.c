/*
 * watch.c - caret live --watch DIR: the looks at what an lttng-relayd
 * files under DIR while the hosts record with `caret record --relayd HOST
 * --rotate 1`. The relay daemon moves each chunk a host's session closes to
 * DIR/HOST/SESSION/archives/BEGIN-END-N, a complete trace; a look reads
 * every host's latest chunks (and those with initialization events) as one
 * system, up to the last event of the host furthest behind. A host that
 * sends nothing for a few seconds is said to have gone and holds nobody
 * back; its data so far stays. Each host's chunks are taken in order, none
 * passed over without a word (archives.c); one session a host is followed,
 * a second said.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "clock.h"
#include "state.h"
#include "trace_dir.h"

#define GONE_NS 3000000000LL /* no chunk for this long: the host has gone */

static volatile sig_atomic_t g_stop;

static void on_signal(int sig)
{
	(void)sig;
	g_stop = 1;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static struct live_host *host_of(struct live *L, const char *name, const char *session)
{
	for (size_t i = 0; i < L->n_hosts; i++)
		if (!strcmp(L->hosts[i].name, name))
			return &L->hosts[i];
	if (L->n_hosts == LIVE_MAX_HOSTS)
		return NULL;
	struct live_host *h = &L->hosts[L->n_hosts++];
	memset(h, 0, sizeof *h);
	snprintf(h->name, sizeof h->name, "%s", name);
	h->session = strdup(session);
	h->heard = caret_monotonic_ns(); /* known since */
	h->chunks.keep = true; /* the relay daemon's files are the user's trace */
	return h;
}

/* A host's session folder the watch follows: one written to since the
 * watch began, or in the two seconds before (a recording under way
 * rotates every second; one that ended before is not followed). */
static bool recent(const char *path, time_t since)
{
	struct stat st;
	return stat(path, &st) == 0 && st.st_mtime >= since - 2;
}

/* A second session under a host's name: not followed, said once (its
 * events beside the first's would be counted twice, or one host's clock
 * mixed with another's). */
static void other_session(struct live_host *h, const char *session)
{
	if (live_names_once(&h->others, session))
		fprintf(stderr, "caret live: %s has a second session, %s, beside %s: one session a "
			"host is followed; what %s records is not counted\n", h->name, session,
			h->session, session);
}

/* A host over the most followed, said once. */
static void too_many_hosts(struct live *L, const char *name)
{
	if (!L->hosts_not_followed++)
		fprintf(stderr, "caret live: %s is not followed: %d hosts at most; its chunks are not "
			"counted\n", name, LIVE_MAX_HOSTS);
}

/* Every host folder under the watched one: its session's new chunks (final:
 * a missing chunk is lost at once). */
static bool scan(struct live *L, time_t since, bool final)
{
	const char *root = L->o->watch_dir;
	DIR *d = opendir(root);
	bool came = false;
	struct dirent *host;
	while (d && (host = readdir(d))) {
		char hdir[4096];
		snprintf(hdir, sizeof hdir, "%s/%s", root, host->d_name);
		if (host->d_name[0] == '.' || !is_dir(hdir))
			continue;
		DIR *hd = opendir(hdir);
		struct dirent *session;
		while (hd && (session = readdir(hd))) {
			char sdir[4096 + 256], archives[4096 + 512];
			snprintf(sdir, sizeof sdir, "%s/%s", hdir, session->d_name);
			snprintf(archives, sizeof archives, "%s/archives", sdir);
			if (session->d_name[0] == '.' || !is_dir(sdir) || !recent(sdir, since))
				continue;
			/* known from its folder on: it holds the looks back until its
			 * first chunk comes (else what it recorded first, before the
			 * others' last look, would never be counted) */
			struct live_host *h = host_of(L, host->d_name, sdir);
			if (!h)
				too_many_hosts(L, host->d_name);
			else if (strcmp(h->session, sdir))
				other_session(h, sdir);
			else if (is_dir(archives))
				came |= live_archives_take(h, archives, final);
		}
		if (hd)
			closedir(hd);
	}
	if (d)
		closedir(d);
	return came;
}

/* A host's other sessions that hold a trace, each said: not counted. */
static size_t others_recorded(const struct live_host *h)
{
	size_t n = 0;
	for (size_t i = 0; i < h->others.n; i++) {
		const char *session = h->others.items[i];
		if (!cr_dir_bytes(session))
			continue;
		fprintf(stderr, "caret live: %s's second session %s was not followed: its trace is "
			"not counted\n", h->name, session);
		n++;
	}
	return n;
}

/* Whether a host's session has a chunk under way (a folder beside
 * archives/): it records still, or its recorder died without ending it;
 * a session ended cleanly has every chunk archived. */
static bool chunk_under_way(const struct live_host *h)
{
	DIR *d = opendir(h->session);
	struct dirent *e;
	bool open = false;
	while (d && !open && (e = readdir(d))) {
		char path[8192];
		snprintf(path, sizeof path, "%s/%s", h->session, e->d_name);
		open = e->d_name[0] != '.' && strcmp(e->d_name, "archives") && is_dir(path);
	}
	if (d)
		closedir(d);
	return open;
}

/* Which hosts still send; each change said once. A host quiet for a few
 * seconds with a chunk under way has gone (its recorder or the host died);
 * one quiet with every chunk archived ended its recording. */
static void mark_active(struct live *L, bool final)
{
	int64_t now = caret_monotonic_ns();
	for (size_t i = 0; i < L->n_hosts; i++) {
		struct live_host *h = &L->hosts[i];
		h->active = !final && h->chunks.n && now - h->heard < GONE_NS;
		if (!h->active && !final && h->chunks.n && !h->said_gone) {
			if (chunk_under_way(h)) {
				fprintf(stderr, "caret live: %s has sent nothing for %.0f s while its "
					"session records still: gone? Its data so far is kept; the "
					"other hosts go on\n", h->name, GONE_NS / 1e9);
				h->gone_at = h->heard;
			} else {
				fprintf(stderr, "caret live: %s ended its recording\n", h->name);
			}
			h->said_gone = true;
		} else if (h->active && h->said_gone) {
			fprintf(stderr, "caret live: %s sends again\n", h->name);
			h->said_gone = false;
			h->gone_at = 0;
		}
	}
}

/* A host known by its session's folder whose first chunk with events has
 * not come: for a few seconds at most, and two empty chunks at most (a
 * host with no traced process holds nobody back). */
static bool waiting_for_first_chunk(const struct live *L)
{
	size_t sent = 0;
	for (size_t i = 0; i < L->n_hosts; i++)
		sent += L->hosts[i].chunks.n > 0;
	if (!L->looks && sent < L->o->hosts) /* --hosts: every one before the first look */
		return true;
	for (size_t i = 0; i < L->n_hosts; i++) {
		const struct live_host *h = &L->hosts[i];
		if (!h->chunks.n && h->next_chunk < 2 && caret_monotonic_ns() - h->heard < GONE_NS)
			return true;
	}
	return false;
}

/* The chunks a look reads: every host's chunks with initialization events,
 * those that may hold events the looks have not counted (all of them
 * before the first: a host that began long before another has its start
 * counted too), and as many before as the lookback (a second each) and one. */
static size_t chunks_to_read(const struct live *L, const char **paths)
{
	size_t n = 0, keep = (size_t)L->o->lookback_s + 1;
	for (size_t i = 0; i < L->n_hosts; i++)
		n += live_chunks_uncounted(&L->hosts[i].chunks, keep, paths + n);
	return n;
}

static bool look(struct live *L)
{
	size_t total = 0;
	for (size_t i = 0; i < L->n_hosts; i++)
		total += L->hosts[i].chunks.n;
	const char **paths = malloc((total + 1) * sizeof *paths);
	if (!paths)
		return false;
	size_t n = chunks_to_read(L, paths);
	uint64_t before = L->looks;
	bool ok = live_look_at(L, paths, n, 0);
	free(paths);
	for (size_t i = 0; L->looks > before && i < L->n_hosts; i++) /* a look counted */
		live_chunks_looked(&L->hosts[i].chunks, L->hosts[i].last_event, L->counted_until);
	live_expire(L, L->counted_until);
	live_presence_hosts(L);
	live_print_window(L, L->counted_until);
	return ok;
}

int live_watch(struct live *L)
{
	const struct live_options *o = L->o;
	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (!is_dir(o->watch_dir)) {
		fprintf(stderr, "caret live: %s is not a folder (lttng-relayd's --output)\n",
			o->watch_dir);
		return 1;
	}
	fprintf(stderr, "caret live: watching %s for the chunks lttng-relayd files (each host: "
		"caret record --relayd HOST --rotate 1)\n", o->watch_dir);
	time_t since = time(NULL);
	int64_t started = caret_monotonic_ns();
	int64_t end = o->record.duration > 0 ?
		caret_monotonic_ns() + (int64_t)(o->record.duration * 1e9) : INT64_MAX;
	bool ok = true;
	while (ok && !g_stop && caret_monotonic_ns() < end) {
		bool came = scan(L, since, false);
		mark_active(L, false);
		if (came && !waiting_for_first_chunk(L))
			ok = look(L);
		caret_sleep_ms(200);
	}
	if (ok) { /* what came last, up to the end of every host's data */
		scan(L, since, true);
		mark_active(L, true);
		ok = look(L);
	}
	/* a host that went quiet with a chunk under way, still so at the end:
	 * its data after that is missing */
	size_t lost = 0;
	for (size_t i = 0; i < L->n_hosts; i++) {
		const struct live_host *h = &L->hosts[i];
		if (h->gone_at && chunk_under_way(h)) {
			fprintf(stderr, "caret live: %s stopped sending with its session recording "
				"still: its data after %.1f s into the watch is missing\n", h->name,
				(double)(h->gone_at - started) / 1e9);
			lost++;
		}
	}
	lost += live_archives_lost(L) + L->hosts_not_followed;
	for (size_t i = 0; i < L->n_hosts; i++) {
		lost += others_recorded(&L->hosts[i]);
		live_host_free(&L->hosts[i]);
	}
	if (!L->n_hosts)
		fprintf(stderr, "caret live: no host's chunks came to %s: nothing was watched\n",
			o->watch_dir);
	return ok && L->n_hosts && !lost ? 0 : 1;
}
