/* record.c - see record.h. */
#define _GNU_SOURCE
#include "record.h"
#include "plural.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

#include "control.h"
#include "ctf_iter.h"
#include "lock.h"
#include "processes.h"
#include "session.h"

struct recorder {
	const struct cr_record_options *o;
	struct cc_endpoints ep;
	struct cr_session *session;
	struct cr_session *flight; /* snapshot_session */
	char flight_name[140];
	struct cr_lock *lock;
	struct cr_processes *procs;
	bool tty;
	char session_name[128], output[PATH_MAX], err[512];
	char url[PATH_MAX];  /* net://HOST when streamed to lttng-relayd */
	int64_t start_sent, started;
	pid_t child;
	double lost_at; /* the session was stopped or destroyed by someone else */
	const char *lost_how;
};

static volatile sig_atomic_t g_stop;

/* What the messages begin with: the verb recording (caret record, caret live). */
static const char *who(const struct recorder *r)
{
	return r->o->verb ? r->o->verb : "caret record";
}

#define SAY(r, ...) (fprintf(stderr, "%s: ", who(r)), fprintf(stderr, __VA_ARGS__))

static void on_signal(int sig)
{
	(void)sig;
	g_stop = 1;
}


static int fail(const struct recorder *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(const struct recorder *r, const char *fmt, ...)
{
	va_list ap;
	if (r->tty)
		fputc('\n', stderr);
	fprintf(stderr, "%s: ", who(r));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

/* ---- processes, from their Status ----------------------------------- */

/* When the last process entered RECORD. */
static int64_t last_transition(const struct recorder *r)
{
	int64_t last = r->start_sent;
	for (size_t i = 0; i < cr_processes_count(r->procs); i++)
		if (cr_processes_at(r->procs, i)->recording_since > last)
			last = cr_processes_at(r->procs, i)->recording_since;
	return last;
}

static void show_progress(struct recorder *r, const char *phase, double seconds)
{
	char line[256];
	struct cr_tally t = cr_processes_tally(r->procs);
	int64_t discarded = cr_session_discarded(r->session);
	uint64_t bytes = cr_session_bytes_on_disk(r->session);

	if (r->o->quiet)
		return;
	snprintf(line, sizeof line, "%s %5.1fs | %zu %s: %zu WAIT, %zu PREPARE, "
		"%zu RECORD | %.1f MiB | %" PRId64 " discarded", phase, seconds, t.live,
		caret_plural(t.live, "process", "processes"),
		t.wait, t.prepare, t.record, (double)bytes / (1 << 20),
		discarded < 0 ? 0 : discarded);
	if (r->tty) {
		fprintf(stderr, "\r%-100s", line);
		fflush(stderr);
	}
}

/* ---- commands -------------------------------------------------------- */

static void wait_for_readers(dds_entity_t writer)
{
	dds_publication_matched_status_t st;
	uint32_t last = 0;
	int64_t until = caret_monotonic_ns() + 2000000000LL, stable_since = caret_monotonic_ns();

	/* Until the matched readers stop changing for 300 ms (discovery). */
	while (caret_monotonic_ns() < until && !g_stop) {
		if (dds_get_publication_matched_status(writer, &st) == 0 && st.current_count != last) {
			last = st.current_count;
			stable_since = caret_monotonic_ns();
		}
		if (last > 0 && caret_monotonic_ns() - stable_since > 300000000LL)
			break;
		caret_sleep_ms(20);
	}
}

static void send_start(struct recorder *r)
{
	cc_start s = { .recording_frequency = r->o->frequency, .ignore_nodes = "",
		.ignore_topics = "", .select_nodes = "", .select_topics = "" };
	dds_write(r->ep.start, &s);
	r->start_sent = caret_monotonic_ns();
}

/* --immediate: processes started after the session begin in RECORD;
 * one found waiting (it ran before: a script written for the original's
 * --immediate) is told to start, as it is seen, without holding the
 * recording for it (again after 1.5 s for one that missed it). */
static void start_waiting(struct recorder *r)
{
	if (cr_processes_tally(r->procs).wait &&
	    caret_monotonic_ns() - r->start_sent > 1500000000LL)
		send_start(r);
}

static void send_end(struct recorder *r)
{
	cc_end e = { 0 };
	wait_for_readers(r->ep.end);
	dds_write(r->ep.end, &e);
}

/* ---- the command to record (`-- CMD`) --------------------------------- */

static bool executable(const char *cmd)
{
	if (strchr(cmd, '/'))
		return access(cmd, X_OK) == 0;
	const char *path = getenv("PATH");
	char *copy = strdup(path ? path : "/usr/bin:/bin"), *save = NULL;
	bool found = false;
	for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char full[PATH_MAX];
		snprintf(full, sizeof full, "%s/%s", *dir ? dir : ".", cmd);
		found = access(full, X_OK) == 0;
	}
	free(copy);
	return found;
}

static pid_t launch(const struct cr_record_options *o)
{
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	const char *old = getenv("LD_PRELOAD");
	char *preload = NULL;
	if (asprintf(&preload, "%s%s%s", o->tracer_lib, old && *old ? ":" : "",
		     old ? old : "") < 0)
		_exit(127);
	setenv("LD_PRELOAD", preload, 1);
	if (o->no_merge)
		setenv("CARET_MERGE", "0", 1);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	execvp(o->command[0], o->command);
	fprintf(stderr, "caret record: cannot execute %s: %s\n", o->command[0], strerror(errno));
	_exit(127);
}

/* ---- the run ---------------------------------------------------------- */

static const char *set(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

/* Where traces go without -o, as ros2_tracing (and the original's record)
 * puts them: --path, $ROS_TRACE_DIR, $ROS_HOME/tracing, ~/.ros/tracing. */
static const char *base_dir(const struct cr_record_options *o)
{
	static char dir[PATH_MAX / 2];
	if (o->base_dir)
		return o->base_dir;
	if (set("ROS_TRACE_DIR"))
		return set("ROS_TRACE_DIR");
	if (set("ROS_HOME"))
		snprintf(dir, sizeof dir, "%.*s/tracing", PATH_MAX / 2 - 9, set("ROS_HOME"));
	else
		snprintf(dir, sizeof dir, "%.*s/.ros/tracing", PATH_MAX / 2 - 14,
			set("HOME") ? set("HOME") : "/tmp");
	return dir;
}

/* dir (made absolute from the working directory) and, if not empty,
 * "/" name. */
static void absolute(char *out, size_t size, const char *dir, const char *name)
{
	char cwd[PATH_MAX / 4] = "";
	if (dir[0] != '/' && !getcwd(cwd, sizeof cwd))
		snprintf(cwd, sizeof cwd, ".");
	snprintf(out, size, "%s%s%.*s%s%.*s", cwd, *cwd ? "/" : "", PATH_MAX / 2, dir,
		*name ? "/" : "", PATH_MAX / 5, name);
}

static void default_names(struct recorder *r)
{
	const struct cr_record_options *o = r->o;
	time_t t = time(NULL);
	struct tm tm;
	localtime_r(&t, &tm);
	if (o->session_name)
		snprintf(r->session_name, sizeof r->session_name, "%s", o->session_name);
	else { /* the pid keeps two recorders started in the same second apart */
		char stamp[32];
		strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
		snprintf(r->session_name, sizeof r->session_name, "caret-%s-%d", stamp,
			(int)getpid());
	}
	if (o->relayd) { /* where lttng-relayd files it: HOSTNAME/SESSION-DATE */
		char host[256] = "";
		gethostname(host, sizeof host - 1);
		snprintf(r->url, sizeof r->url, "net://%s", o->relayd);
		snprintf(r->output, sizeof r->output, "lttng-relayd on %.200s, under its output "
			"directory: %.200s/%.100s-*", o->relayd, host, r->session_name);
	} else if (o->output_dir)
		absolute(r->output, sizeof r->output, o->output_dir, "");
	else
		absolute(r->output, sizeof r->output, base_dir(o), r->session_name);
}

/* The output directory's nearest existing parent must be writable. */
static int check_output(struct recorder *r)
{
	char dir[PATH_MAX];
	struct stat st;

	if (stat(r->output, &st) == 0)
		return fail(r, "output directory %s already exists", r->output);
	snprintf(dir, sizeof dir, "%s", r->output);
	for (char *slash; (slash = strrchr(dir, '/')) && slash != dir;) {
		*slash = '\0';
		if (stat(dir, &st) == 0) {
			if (!S_ISDIR(st.st_mode) || access(dir, W_OK) != 0)
				return fail(r, "cannot write the trace under %s: %s", dir,
					S_ISDIR(st.st_mode) ? strerror(EACCES) : "not a directory");
			return 0;
		}
	}
	return 0;
}

struct counts {
	uint64_t events, discarded;
};

static int count_event(const bt_event *ev, uint64_t clock, void *user)
{
	(void)ev;
	(void)clock;
	((struct counts *)user)->events++;
	return 0;
}

static void count_discarded(const bt_stream *s, uint64_t n, void *user)
{
	(void)s;
	((struct counts *)user)->discarded += n;
}

/* Bytes free for us on the file system holding the trace; -1 unknown. */
static int64_t free_bytes(const char *dir)
{
	struct statvfs st;
	if (statvfs(dir, &st) != 0)
		return -1;
	return (int64_t)(st.f_bavail * st.f_frsize);
}

#define DISK_FULL_BYTES (64 << 10) /* less than this left: LTTng cannot write a packet */

static bool disk_full(const struct recorder *r)
{
	if (r->o->relayd) /* the relay daemon's disk: it says so itself */
		return false;
	int64_t left = free_bytes(r->output);
	return left >= 0 && left < DISK_FULL_BYTES;
}

/* What went wrong while recording that makes the trace incomplete, said
 * in one line each; the number of such problems. */
static int report_losses(const struct recorder *r)
{
	int problems = 0;
	if (r->lost_how) {
		fail(r, "the session %s was %s by someone else %.1f s into the recording: the "
			"trace covers only that", r->session_name, r->lost_how, r->lost_at);
		problems++;
	}
	for (size_t i = 0; i < cr_processes_count(r->procs); i++) {
		const struct cr_process *p = cr_processes_at(r->procs, i);
		if (!p->left_record)
			continue;
		fail(r, "%s (pid %" PRId64 ", %s) left RECORD %.1f s into the recording (an End "
			"or Start from another recorder?): its events after that are missing",
			p->name, p->pid, p->first_node[0] ? p->first_node : "no node",
			(double)(p->left_record - r->started) / 1e9);
		problems++;
	}
	return problems;
}

/* The tracers' own warnings (an invalid filter pattern...), once each. */
static void report_warnings(const struct recorder *r)
{
	size_t n = cr_processes_count(r->procs);
	for (size_t i = 0; i < n; i++) {
		const struct cr_process *p = cr_processes_at(r->procs, i);
		bool said = !p->warning[0];
		for (size_t k = 0; k < i && !said; k++)
			said = !strcmp(cr_processes_at(r->procs, k)->warning, p->warning);
		if (said)
			continue;
		size_t same = 0;
		for (size_t k = i; k < n; k++)
			same += !strcmp(cr_processes_at(r->procs, k)->warning, p->warning);
		SAY(r, "warning from %zu process%s (pid %" PRId64 "%s): %s\n",
			same, same == 1 ? "" : "es", p->pid, same > 1 ? ", ..." : "", p->warning);
	}
	uint64_t foreign, malformed;
	cr_processes_ignored(r->procs, &foreign, &malformed);
	if (foreign || malformed)
		SAY(r, "ignored %" PRIu64 " Status message%s from writers "
			"that are not caret tracers and %" PRIu64 " malformed one%s\n", foreign,
			foreign == 1 ? "" : "s", malformed, malformed == 1 ? "" : "s");
}

static int finish(struct recorder *r, double recorded_seconds)
{
	char err[512];
	int64_t lttng_discarded = cr_session_discarded(r->session);
	size_t processes = cr_processes_count(r->procs);

	if (r->tty)
		fputc('\n', stderr);
	int problems = report_losses(r);
	if (r->lost_how)
		recorded_seconds = r->lost_at;
	int stopped = cr_session_stop_and_destroy(r->session, err, sizeof err);
	r->session = NULL;
	cc_close(&r->ep);
	if (disk_full(r))
		return fail(r, "the disk holding %s is full (%" PRId64 " KiB left): the trace is "
			"incomplete", r->output, free_bytes(r->output) / 1024);
	if (stopped != 0)
		return fail(r, "%s", err);

	if (r->o->relayd) { /* the trace is on the relay daemon's host */
		report_warnings(r);
		SAY(r, "recorded %.1f s, %zu %s, streamed to %s\n", recorded_seconds, processes,
			caret_plural(processes, "process", "processes"), r->output);
		if (lttng_discarded > 0)
			return fail(r, "%" PRId64 " events were discarded: latencies may be wrong; use "
				"bigger buffers (--subbuf-size, --num-subbuf) or --blocking",
				lttng_discarded);
		return problems ? 1 : 0;
	}
	if (r->o->quiet) { /* live: the chunks were read as they came */
		report_warnings(r);
		if (lttng_discarded > 0)
			return fail(r, "%" PRId64 " events were discarded: latencies may be wrong; use "
				"bigger buffers (--subbuf-size, --num-subbuf)", lttng_discarded);
		return problems ? 1 : 0;
	}
	struct counts c = { 0 };
	struct ca_ctf_handlers h = { count_event, count_discarded, &c, NULL };
	if (cr_dir_bytes(r->output) == 0)
		return fail(r, "nothing was recorded in %.1f s: no process with libcaret.so "
			"preloaded ran (LTTng wrote no trace)", recorded_seconds);
	if (ca_ctf_iterate(r->output, &h, err, sizeof err) != 0)
		return fail(r, "the trace cannot be read back: %s", err);
	if (lttng_discarded > (int64_t)c.discarded)
		c.discarded = (uint64_t)lttng_discarded;
	report_warnings(r);
	SAY(r, "recorded %.1f s, %zu %s, %" PRIu64 " %s, "
		"%" PRIu64 " discarded\n", recorded_seconds, processes,
		caret_plural(processes, "process", "processes"), c.events,
		caret_plural(c.events, "event", "events"), c.discarded);
	printf("%s\n", r->output);
	if (c.discarded)
		SAY(r, "%" PRIu64 " events were discarded: latencies "
			"may be wrong; use bigger buffers (--subbuf-size, --num-subbuf) or "
			"--blocking\n", c.discarded);
	return problems ? 1 : 0;
}

/* Another recorder's lock, or a session a dead one left: one line, 1. */
static int take_lock(struct recorder *r)
{
	char err[512], orphan[256];
	r->lock = cr_lock_take(r->o->track_vgid, orphan, sizeof orphan, err, sizeof err);
	if (!r->lock)
		return fail(r, "%s", err);
	int destroyed = cr_session_destroy_named(orphan, err, sizeof err);
	if (destroyed < 0)
		return fail(r, "a recorder that died left session %s: %s", orphan, err);
	if (destroyed)
		SAY(r, "stopped session %s, left recording by a caret record "
			"that died (its trace stays where it was written)\n", orphan);
	return 0;
}

/* Watches the session while recording: stopped or destroyed by someone
 * else, or the disk full, ends the recording. */
static bool session_lost(struct recorder *r)
{
	static int64_t last_check;
	int64_t now = caret_monotonic_ns();
	if (now - last_check < 500000000LL)
		return false;
	last_check = now;
	int state = cr_session_state(r->session);
	if (state == 0) { /* lttng destroy stops first: which was it? */
		caret_sleep_ms(300);
		state = cr_session_state(r->session);
	}
	if (state < 1) {
		r->lost_how = state == 0 ? "stopped" : "destroyed";
		r->lost_at = (double)(now - r->started) / 1e9;
		return true;
	}
	if (disk_full(r)) {
		r->lost_at = (double)(now - r->started) / 1e9;
		return true; /* finish() says why */
	}
	return false;
}

/* Start, then until every process records (or the wait runs out). */
static void start_processes(struct recorder *r)
{
	const struct cr_record_options *o = r->o;
	/* A tracer ignores Start while it records (for a recorder that died,
	 * say): End first, so every process starts from WAIT. Nothing else
	 * records now: that was checked before the session was made. */
	send_end(r);
	dds_wait_for_acks(r->ep.end, DDS_SECS(1));
	wait_for_readers(r->ep.start);
	send_start(r);
	int64_t deadline = caret_monotonic_ns() + (int64_t)(o->wait_timeout * 1e9);
	int resent = 0;
	for (;;) {
		cr_processes_update(r->procs, false);
		struct cr_tally t = cr_processes_tally(r->procs);
		/* Every tracer has one Start reader: that many must record. */
		dds_publication_matched_status_t m = { 0 };
		dds_get_publication_matched_status(r->ep.start, &m);
		show_progress(r, "starting", (double)(caret_monotonic_ns() - r->start_sent) / 1e9);
		if (g_stop || (t.live && t.record == t.live && t.live >= m.current_count)) {
			if (r->tty)
				fputc('\n', stderr);
			SAY(r, "%s %zu %s recording %.2f s "
				"after Start\n", t.live == 1 ? "the" : "all", t.live,
				caret_plural(t.live, "process", "processes"), (double)(last_transition(r) -
					r->start_sent) / 1e9);
			return;
		}
		/* A process that joined after the Start (or missed it); those
		 * recording already ignore a Start from the same recorder. */
		if (t.wait && resent < 3 && caret_monotonic_ns() - r->start_sent > 1500000000LL) {
			send_start(r);
			resent++;
		}
		if (caret_monotonic_ns() > deadline) {
			if (r->tty)
				fputc('\n', stderr);
			if (!t.live)
				SAY(r, "no traced process answered on "
					"ROS_DOMAIN_ID %d (started with LD_PRELOAD=libcaret.so?); "
					"recording anyway\n", cc_domain_from_env());
			for (size_t i = 0; i < cr_processes_count(r->procs); i++) {
				const struct cr_process *p = cr_processes_at(r->procs, i);
				if (p->state != CC_RECORD)
					SAY(r, "%s (pid %" PRId64 ", %s) "
						"still %s after %.0f s\n", p->name, p->pid,
						p->first_node[0] ? p->first_node : "no node",
						cc_state_name(p->state), o->wait_timeout);
			}
			return;
		}
		caret_sleep_ms(20);
	}
}

/* The command's own failure (not the SIGINT we sent it at the end). */
static int command_status(const struct recorder *r, int status, bool exited_alone)
{
	const char *cmd = r->o->command[0];
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return fail(r, "%s could not be executed", cmd);
	if (!exited_alone)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
		fail(r, "%s exited with status %d", cmd, WEXITSTATUS(status));
		return WEXITSTATUS(status);
	}
	if (WIFSIGNALED(status)) {
		fail(r, "%s was killed by signal %d (%s)", cmd, WTERMSIG(status),
			strsignal(WTERMSIG(status)));
		return 128 + WTERMSIG(status);
	}
	return 0;
}

/* Rotates the session and hands the chunk over; the consumer's status. */
static int hand_over_chunk(struct recorder *r, bool last)
{
	char chunk[PATH_MAX], err[512];
	int64_t asked = caret_monotonic_ns();
	if (cr_session_rotate(r->session, chunk, sizeof chunk, err, sizeof err) != 0) {
		/* the session destroyed or stopped under us: session_lost says so */
		if (cr_session_state(r->session) < 1)
			return 0;
		fail(r, "%s", err);
		return 1;
	}
	return r->o->on_chunk ? r->o->on_chunk(r->o->user, r, chunk, asked, last) : 0;
}

int cr_record_snapshot(struct recorder *r, const char *path, char *err, size_t err_size)
{
	if (!r->flight) {
		snprintf(err, err_size, "no flight recorder session");
		return -1;
	}
	return cr_session_snapshot(r->flight, path, err, err_size);
}

int64_t cr_record_discarded(const struct recorder *r)
{
	return cr_session_discarded(r->session);
}

int64_t cr_record_started_ns(const struct recorder *r)
{
	return r->started;
}

/* What must hold before a session is made: 0, or the exit status. */
static int preflight(struct recorder *r)
{
	const struct cr_record_options *o = r->o;
	char err[512];
	if (o->command && !executable(o->command[0]))
		return fail(r, "cannot execute %s: command not found", o->command[0]);
	if (!cr_sessiond_alive())
		return fail(r, "no LTTng session daemon is running "
			"(start one: lttng-sessiond --daemonize)");
	if (take_lock(r))
		return 1;
	int active = cr_active_session_records_caret(o->track_vgid, err, sizeof err);
	if (active < 0)
		return fail(r, "%s", err);
	if (active)
		return fail(r, "session %s already records ros2_caret events, not started by caret "
			"record: stop it first (lttng list; lttng destroy NAME)", err);
	if (!o->relayd && check_output(r))
		return 1;
	if (!o->command && !o->immediate && cc_discovery_from_env() == CC_DISCOVERY_OFF)
		return fail(r, "ROS_AUTOMATIC_DISCOVERY_RANGE=OFF: the ROS 2 processes discover "
			"nothing outside themselves, so they cannot be told to start; record them "
			"from their start (--immediate before starting them, or -- CMD)");
	return 0;
}

/* The session (and the flight recorder) recording, the control topics
 * open: 0, or the exit status. */
static int open_sessions(struct recorder *r)
{
	const struct cr_record_options *o = r->o;
	char err[512];
	struct cr_session_options so = {
		.name = r->session_name, .output_dir = r->output,
		.subbuf_size = o->subbuf_size, .num_subbuf = o->num_subbuf,
		.blocking = o->blocking, .light = o->light, .track_vgid = o->track_vgid,
		.url = o->relayd ? r->url : NULL,
	};
	r->session = cr_session_create(&so, err, sizeof err);
	if (!r->session)
		return fail(r, "%s", err);
	cr_lock_name_session(r->lock, r->session_name, r->output);
	if (o->snapshot_session) {
		so.snapshot = true;
		/* the flight recorder holds seconds: 32 MiB a CPU, or the user's if more */
		if (so.subbuf_size * so.num_subbuf < (32u << 20)) {
			so.subbuf_size = 4u << 20;
			so.num_subbuf = 8;
		}
		snprintf(r->flight_name, sizeof r->flight_name, "%s-flight", r->session_name);
		so.name = r->flight_name;
		if (!(r->flight = cr_session_create(&so, err, sizeof err)))
			return fail(r, "the flight recorder: %s", err);
		if (cr_session_start(r->flight, err, sizeof err) != 0)
			return fail(r, "the flight recorder: %s", err);
	}
	if (cr_session_start(r->session, err, sizeof err) != 0)
		return fail(r, "%s", err);
	if (cc_open(&r->ep, cc_domain_from_env(), CC_RECORDER, err, sizeof err) != 0)
		return fail(r, "%s", err);
	if (!(r->procs = cr_processes_create(r->ep.status, r->ep.start)))
		return fail(r, "out of memory");
	return 0;
}

static int run(struct recorder *r)
{
	const struct cr_record_options *o = r->o;
	int status = preflight(r);
	if (status || (status = open_sessions(r)))
		return status;

	/* a closed terminal (SIGHUP) ends the recording as Ctrl-C does: by
	 * default it would kill the recorder, the session left recording */
	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	SAY(r, "session %s, trace in %s\n", r->session_name, r->output);

	if (o->command) {
		r->child = launch(o);
		if (r->child < 0)
			return fail(r, "cannot start %s: %s", o->command[0], strerror(errno));
	} else if (!o->immediate) {
		start_processes(r);
	}

	r->started = caret_monotonic_ns();
	int64_t until = o->duration > 0 ? r->started + (int64_t)(o->duration * 1e9) : INT64_MAX;
	int64_t period = (int64_t)(o->rotate_seconds * 1e9), next_chunk = r->started + period;
	int child_status = 0;
	bool exited_alone = false, consumer_done = false;
	/* the replayed initialization in a chunk of its own: the chunks a
	 * consumer reads again and again are small */
	bool rotating = o->rotate_seconds > 0;
	if (rotating)
		consumer_done = hand_over_chunk(r, false) != 0;
	while (!g_stop && caret_monotonic_ns() < until && !session_lost(r) && !consumer_done) {
		cr_processes_update(r->procs, !o->command && !o->immediate);
		if (o->immediate)
			start_waiting(r);
		show_progress(r, "recording", (double)(caret_monotonic_ns() - r->started) / 1e9);
		if (r->child > 0 && waitpid(r->child, &child_status, WNOHANG) == r->child) {
			r->child = 0;
			exited_alone = true;
			break;
		}
		if (rotating && caret_monotonic_ns() >= next_chunk) {
			next_chunk += period;
			consumer_done = hand_over_chunk(r, false) != 0;
			continue;
		}
		int64_t wait = (rotating ? next_chunk : INT64_MAX) - caret_monotonic_ns();
		caret_sleep_ms(wait < 200000000LL ? (wait > 0 ? (int)(wait / 1000000) : 0) : 200);
	}
	if (r->child > 0) { /* our command: stop it, then wait */
		kill(r->child, SIGINT);
		waitpid(r->child, &child_status, 0);
		r->child = 0;
	}
	double recorded = (double)(caret_monotonic_ns() - r->started) / 1e9;
	cr_processes_update(r->procs, !o->command && !o->immediate);
	if (!o->command && !o->immediate)
		send_end(r);
	/* what was recorded since the last chunk, unless the session is gone;
	 * stopped first, so that the last chunk holds every event the trace
	 * keeps (a run that ends after it would be in the trace, never looked at) */
	if (rotating && !consumer_done && !r->lost_how && cr_session_state(r->session) >= 0) {
		cr_session_stop(r->session);
		hand_over_chunk(r, true);
	}
	int rc = finish(r, recorded);
	int cmd = o->command ? command_status(r, child_status, exited_alone) : 0;
	return cmd ? cmd : rc;
}

int cr_record_run(const struct cr_record_options *o)
{
	static struct recorder rec;
	struct recorder *r = &rec;

	memset(r, 0, sizeof *r);
	r->o = o;
	r->tty = isatty(STDERR_FILENO);
	default_names(r);
	int rc = run(r);
	/* Whatever failed: nothing of ours is left behind. */
	if (r->child > 0) {
		kill(r->child, SIGINT);
		waitpid(r->child, NULL, 0);
	}
	cr_session_stop_and_destroy(r->session, NULL, 0);
	cr_session_stop_and_destroy(r->flight, NULL, 0);
	cc_close(&r->ep);
	cr_processes_free(r->procs);
	cr_lock_release(r->lock);
	return rc;
}
