/* record.c - see record.h. */
#define _GNU_SOURCE
#include "record.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

#include "control.h"
#include "ctf_iter.h"
#include "session.h"

#define MAX_PROCESSES 4096
#define STALE_NS 3000000000LL /* a process silent this long is gone */

struct process {
	char name[80];
	int64_t pid;
	int state;
	int64_t last_seen, recording_since;
	char first_node[128];
};

struct recorder {
	const struct cr_record_options *o;
	struct cc_endpoints ep;
	struct cr_session *session;
	struct process procs[MAX_PROCESSES];
	size_t n_procs;
	bool tty;
	char session_name[128], output[PATH_MAX], err[512];
	int64_t start_sent;
	pid_t child;
};

static volatile sig_atomic_t g_stop;

static void on_signal(int sig)
{
	(void)sig;
	g_stop = 1;
}


static int fail(struct recorder *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct recorder *r, const char *fmt, ...)
{
	va_list ap;
	if (r->tty)
		fputc('\n', stderr);
	fprintf(stderr, "caret record: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

/* ---- processes, from their Status ----------------------------------- */

static void read_status(struct recorder *r)
{
	void *samples[32] = { NULL };
	dds_sample_info_t infos[32];
	dds_return_t n;

	while ((n = dds_take(r->ep.status, samples, infos, 32, 32)) > 0) {
		for (int i = 0; i < n; i++) {
			const cc_status *s = samples[i];
			if (!infos[i].valid_data)
				continue;
			struct process *p = NULL;
			for (size_t k = 0; k < r->n_procs && !p; k++)
				if (!strcmp(r->procs[k].name, s->caret_node_name))
					p = &r->procs[k];
			if (!p && r->n_procs < MAX_PROCESSES) {
				p = &r->procs[r->n_procs++];
				memset(p, 0, sizeof *p);
				snprintf(p->name, sizeof p->name, "%s", s->caret_node_name);
			}
			if (!p)
				continue;
			p->pid = s->pid;
			if (s->status == CC_RECORD && p->state != CC_RECORD)
				p->recording_since = caret_monotonic_ns();
			p->state = s->status;
			p->last_seen = caret_monotonic_ns();
			if (s->node_names._length)
				snprintf(p->first_node, sizeof p->first_node, "%s",
					s->node_names._buffer[0]);
		}
		dds_return_loan(r->ep.status, samples, n);
		memset(samples, 0, sizeof samples);
	}
}

/* When the last process entered RECORD. */
static int64_t last_transition(const struct recorder *r)
{
	int64_t last = r->start_sent;
	for (size_t i = 0; i < r->n_procs; i++)
		if (r->procs[i].recording_since > last)
			last = r->procs[i].recording_since;
	return last;
}

struct tally {
	size_t live, wait, prepare, record;
};

static struct tally count_states(const struct recorder *r)
{
	struct tally t = { 0 };
	int64_t now = caret_monotonic_ns();
	for (size_t i = 0; i < r->n_procs; i++) {
		const struct process *p = &r->procs[i];
		if (now - p->last_seen > STALE_NS)
			continue;
		t.live++;
		t.wait += p->state == CC_WAIT || p->state == CC_UNINITIALIZED;
		t.prepare += p->state == CC_PREPARE;
		t.record += p->state == CC_RECORD;
	}
	return t;
}

static void show_progress(struct recorder *r, const char *phase, double seconds)
{
	char line[256];
	struct tally t = count_states(r);
	int64_t discarded = cr_session_discarded(r->session);
	uint64_t bytes = cr_session_bytes_on_disk(r->session);

	snprintf(line, sizeof line, "%s %5.1fs | %zu processes: %zu WAIT, %zu PREPARE, "
		"%zu RECORD | %.1f MiB | %" PRId64 " discarded", phase, seconds, t.live,
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
	execvp(o->command[0], o->command);
	fprintf(stderr, "caret record: cannot execute %s: %s\n", o->command[0], strerror(errno));
	_exit(127);
}

/* ---- the run ---------------------------------------------------------- */

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
	if (o->output_dir && o->output_dir[0] == '/')
		snprintf(r->output, sizeof r->output, "%s", o->output_dir);
	else if (o->output_dir) {
		char cwd[PATH_MAX / 2];
		snprintf(r->output, sizeof r->output, "%s/%.*s",
			getcwd(cwd, sizeof cwd) ? cwd : ".", PATH_MAX / 2 - 2, o->output_dir);
	} else {
		const char *home = getenv("HOME");
		snprintf(r->output, sizeof r->output, "%s/.ros/tracing/%s",
			home && *home ? home : "/tmp", r->session_name);
	}
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

static int finish(struct recorder *r, double recorded_seconds)
{
	char err[512];
	int64_t lttng_discarded = cr_session_discarded(r->session);
	size_t processes = r->n_procs;

	if (r->tty)
		fputc('\n', stderr);
	if (cr_session_stop_and_destroy(r->session, err, sizeof err) != 0)
		return fail(r, "%s", err);
	r->session = NULL;
	cc_close(&r->ep);

	struct counts c = { 0 };
	struct ca_ctf_handlers h = { count_event, count_discarded, &c };
	if (ca_ctf_iterate(r->output, &h, err, sizeof err) != 0)
		return fail(r, "the trace cannot be read back: %s", err);
	if (lttng_discarded > (int64_t)c.discarded)
		c.discarded = (uint64_t)lttng_discarded;
	fprintf(stderr, "caret record: recorded %.1f s, %zu processes, %" PRIu64 " events, "
		"%" PRIu64 " discarded\n", recorded_seconds, processes, c.events, c.discarded);
	printf("%s\n", r->output);
	if (c.discarded)
		fprintf(stderr, "caret record: %" PRIu64 " events were discarded: latencies "
			"may be wrong; use bigger buffers (--subbuf-size, --num-subbuf) or "
			"--blocking\n", c.discarded);
	return 0;
}

int cr_record_run(const struct cr_record_options *o)
{
	static struct recorder rec;
	struct recorder *r = &rec;
	char err[512];

	memset(r, 0, sizeof *r);
	r->o = o;
	r->tty = isatty(STDERR_FILENO);
	default_names(r);

	if (o->command && !executable(o->command[0]))
		return fail(r, "cannot execute %s: command not found", o->command[0]);
	if (!cr_sessiond_alive())
		return fail(r, "no LTTng session daemon is running "
			"(start one: lttng-sessiond --daemonize)");
	int active = cr_active_session_records_caret(o->track_vgid, err, sizeof err);
	if (active < 0)
		return fail(r, "%s", err);
	if (active)
		return fail(r, "a session already records ros2_caret events: "
			"stop it first (lttng list)");
	if (check_output(r))
		return 1;
	if (!o->command && !o->immediate && cc_discovery_from_env() == CC_DISCOVERY_OFF)
		return fail(r, "ROS_AUTOMATIC_DISCOVERY_RANGE=OFF: the ROS 2 processes discover "
			"nothing outside themselves, so they cannot be told to start; record them "
			"from their start (--immediate before starting them, or -- CMD)");

	struct cr_session_options so = {
		.name = r->session_name, .output_dir = r->output,
		.subbuf_size = o->subbuf_size, .num_subbuf = o->num_subbuf,
		.blocking = o->blocking, .light = o->light, .track_vgid = o->track_vgid,
	};
	r->session = cr_session_create(&so, err, sizeof err);
	if (!r->session)
		return fail(r, "%s", err);
	if (cr_session_start(r->session, err, sizeof err) != 0) {
		cr_session_stop_and_destroy(r->session, NULL, 0);
		return fail(r, "%s", err);
	}
	if (cc_open(&r->ep, cc_domain_from_env(), CC_RECORDER, err, sizeof err) != 0) {
		cr_session_stop_and_destroy(r->session, NULL, 0);
		return fail(r, "%s", err);
	}

	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	fprintf(stderr, "caret record: session %s, trace in %s\n", r->session_name, r->output);

	if (o->command) {
		r->child = launch(o);
		if (r->child < 0) {
			cr_session_stop_and_destroy(r->session, NULL, 0);
			return fail(r, "cannot start %s: %s", o->command[0], strerror(errno));
		}
	} else if (!o->immediate) {
		/* Every process in WAIT gets Start, replays, and reports RECORD. */
		wait_for_readers(r->ep.start);
		send_start(r);
		int64_t deadline = caret_monotonic_ns() + (int64_t)(o->wait_timeout * 1e9);
		int resent = 0;
		for (;;) {
			read_status(r);
			struct tally t = count_states(r);
			/* Every tracer has one Start reader: that many must record. */
			dds_publication_matched_status_t m = { 0 };
			dds_get_publication_matched_status(r->ep.start, &m);
			show_progress(r, "starting", (double)(caret_monotonic_ns() - r->start_sent) / 1e9);
			if (g_stop || (t.live && t.record == t.live && t.live >= m.current_count)) {
				if (r->tty)
					fputc('\n', stderr);
				fprintf(stderr, "caret record: all %zu processes recording %.2f s "
					"after Start\n", t.live, (double)(last_transition(r) -
						r->start_sent) / 1e9);
				break;
			}
			/* A process that joined after the Start (or missed it). */
			if (t.wait && resent < 3 && caret_monotonic_ns() - r->start_sent > 1500000000LL) {
				send_start(r);
				resent++;
			}
			if (caret_monotonic_ns() > deadline) {
				if (r->tty)
					fputc('\n', stderr);
				if (!t.live)
					fprintf(stderr, "caret record: no traced process answered on "
						"ROS_DOMAIN_ID %d (started with LD_PRELOAD=libcaret.so?); "
						"recording anyway\n", cc_domain_from_env());
				for (size_t i = 0; i < r->n_procs; i++)
					if (r->procs[i].state != CC_RECORD)
						fprintf(stderr, "caret record: %s (pid %" PRId64 ", %s) "
							"still %s after %.0f s\n", r->procs[i].name,
							r->procs[i].pid, r->procs[i].first_node,
							cc_state_name(r->procs[i].state), o->wait_timeout);
				break;
			}
			caret_sleep_ms(20);
		}
	}

	int64_t started = caret_monotonic_ns();
	int64_t until = o->duration > 0 ? started + (int64_t)(o->duration * 1e9) : INT64_MAX;
	int child_status = 0;
	while (!g_stop && caret_monotonic_ns() < until) {
		read_status(r);
		show_progress(r, "recording", (double)(caret_monotonic_ns() - started) / 1e9);
		if (r->child > 0 && waitpid(r->child, &child_status, WNOHANG) == r->child) {
			r->child = 0;
			break;
		}
		caret_sleep_ms(200);
	}
	if (r->child > 0) { /* our command: stop it, then wait */
		kill(r->child, SIGINT);
		waitpid(r->child, &child_status, 0);
	}
	double recorded = (double)(caret_monotonic_ns() - started) / 1e9;
	if (!o->command && !o->immediate)
		send_end(r);
	int rc = finish(r, recorded);
	if (o->command && WIFEXITED(child_status) && WEXITSTATUS(child_status) == 127)
		return fail(r, "%s could not be executed", o->command[0]);
	return rc;
}
