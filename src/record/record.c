/* record.c - see record.h: the recording run, from the checks before it
 * to its end; the processes are started in start.c, the trace summed up
 * in summary.c. */
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
#include "lock.h"
#include "plural.h"
#include "recorder.h"
#include "relayd.h"
#include "trace_dir.h"

static volatile sig_atomic_t g_stop;
static bool g_progress_shown; /* a progress line is on the terminal, not ended */

const char *cr_who(const struct recorder *r)
{
	return r->o->verb ? r->o->verb : "caret record";
}

static void on_signal(int sig)
{
	(void)sig;
	g_stop = 1;
}

bool cr_stop_asked(void)
{
	return g_stop;
}

int64_t cr_after(int64_t t, double seconds)
{
	if (!(seconds > 0))
		return t;
	int64_t ns = seconds < 9e9 ? (int64_t)(seconds * 1e9) : INT64_MAX; /* 9e18 fits */
	return ns > INT64_MAX - t ? INT64_MAX : t + ns;
}

void cr_end_progress(const struct recorder *r)
{
	(void)r;
	if (g_progress_shown)
		fputc('\n', stderr);
	g_progress_shown = false;
}

int cr_fail(const struct recorder *r, const char *fmt, ...)
{
	va_list ap;
	cr_end_progress(r);
	fprintf(stderr, "%s: ", cr_who(r));
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

void cr_show_progress(const struct recorder *r, const char *doing, double seconds)
{
	char line[256];
	if (r->o->quiet || !r->tty)
		return;
	struct cr_tally t = cr_processes_tally(r->procs);
	int64_t discarded = cr_session_discarded(r->session);
	uint64_t bytes = cr_session_bytes_on_disk(r->session);
	snprintf(line, sizeof line, "%s %5.1fs | %zu %s: %zu WAIT, %zu PREPARE, "
		"%zu RECORD | %.1f MiB | %" PRId64 " discarded", doing, seconds, t.live,
		caret_plural(t.live, "process", "processes"),
		t.wait, t.prepare, t.record, (double)bytes / (1 << 20),
		discarded < 0 ? 0 : discarded);
	fprintf(stderr, "\r%-100s", line);
	fflush(stderr);
	g_progress_shown = true;
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
	signal(SIGPIPE, SIG_DFL); /* ignored by the recorder: an ignored signal stays so in exec */
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
		return cr_fail(r, "output directory %s already exists", r->output);
	snprintf(dir, sizeof dir, "%s", r->output);
	for (char *slash; (slash = strrchr(dir, '/')) && slash != dir;) {
		*slash = '\0';
		if (stat(dir, &st) == 0) {
			if (!S_ISDIR(st.st_mode) || access(dir, W_OK) != 0)
				return cr_fail(r, "cannot write the trace under %s: %s", dir,
					S_ISDIR(st.st_mode) ? strerror(EACCES) : "not a directory");
			return 0;
		}
	}
	return 0;
}

/* Another recorder's lock, or a session a dead one left: one line, 1. */
static int take_lock(struct recorder *r)
{
	char err[512], orphan[256];
	r->lock = cr_lock_take(r->o->track_vgid, orphan, sizeof orphan, err, sizeof err);
	if (!r->lock)
		return cr_fail(r, "%s", err);
	int destroyed = cr_session_destroy_named(orphan, err, sizeof err);
	if (destroyed < 0)
		return cr_fail(r, "a recorder that died left session %s: %s", orphan, err);
	if (destroyed)
		CR_SAY(r, "stopped session %s, left recording by a caret record "
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
	if (state == CR_SESSION_STOPPED) { /* lttng destroy stops first: which was it? */
		caret_sleep_ms(300);
		state = cr_session_state(r->session);
	}
	if (state < CR_SESSION_STARTED) {
		r->lost_state = state;
		r->lost_at = (double)(now - r->started) / 1e9;
		return true;
	}
	if (cr_disk_full(r)) {
		r->lost_at = (double)(now - r->started) / 1e9;
		return true; /* cr_finish() says why */
	}
	return false;
}

/* The command's own failure (not the SIGINT we sent it at the end). */
static int command_status(const struct recorder *r, int status, bool exited_alone)
{
	const char *cmd = r->o->command[0];
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return cr_fail(r, "%s could not be executed", cmd);
	if (!exited_alone)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
		cr_fail(r, "%s exited with status %d", cmd, WEXITSTATUS(status));
		return WEXITSTATUS(status);
	}
	if (WIFSIGNALED(status)) {
		cr_fail(r, "%s was killed by signal %d (%s)", cmd, WTERMSIG(status),
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
		if (cr_session_state(r->session) < CR_SESSION_STARTED)
			return 0;
		r->rotation_failed = true;
		if (cr_output_deleted(r))
			cr_fail(r, "%s was deleted %.1f s into the recording: the events since its last "
				"chunk are lost", r->output, (double)(asked - r->started) / 1e9);
		else
			cr_fail(r, "%s", err);
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

bool cr_record_process(const struct recorder *r, size_t i, struct cr_heard_process *out)
{
	if (!r->procs || i >= cr_processes_count(r->procs))
		return false;
	const struct cr_process *p = cr_processes_at(r->procs, i);
	*out = (struct cr_heard_process){ .pid = p->pid, .first_node = p->first_node,
		.live = cr_processes_live(r->procs, i) };
	return true;
}

/* What must hold before a session is made: 0, or the exit status. */
static int preflight(struct recorder *r)
{
	const struct cr_record_options *o = r->o;
	char err[512];
	if (o->command && !executable(o->command[0]))
		return cr_fail(r, "cannot execute %s: command not found", o->command[0]);
	if (!cr_sessiond_alive())
		return cr_fail(r, "no LTTng session daemon is running "
			"(start one: lttng-sessiond --daemonize)");
	/* nothing listening there: said now, before a session to undo */
	if (o->relayd && cr_relayd_reachable(o->relayd, err, sizeof err) != 0)
		return cr_fail(r, "%s", err);
	if (take_lock(r))
		return 1;
	int active = cr_active_session_records_caret(o->track_vgid, err, sizeof err);
	if (active < 0)
		return cr_fail(r, "%s", err);
	if (active)
		return cr_fail(r, "session %s already records ros2_caret events, not started by caret "
			"record: stop it first (lttng list; lttng destroy NAME)", err);
	if (!o->relayd && check_output(r))
		return 1;
	if (!o->command && !o->immediate && cc_discovery_from_env() == CC_DISCOVERY_OFF)
		return cr_fail(r, "ROS_AUTOMATIC_DISCOVERY_RANGE=OFF: the ROS 2 processes discover "
			"nothing outside themselves, so they cannot be told to start; record them "
			"from their start (--immediate before starting them, or -- CMD)");
	return 0;
}

/* The session (and the flight recorder) recording: 0, or the exit status. */
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
		return cr_fail(r, "%s", err);
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
			return cr_fail(r, "the flight recorder: %s", err);
		if (cr_session_start(r->flight, err, sizeof err) != 0)
			return cr_fail(r, "the flight recorder: %s", err);
	}
	if (cr_session_start(r->session, err, sizeof err) != 0)
		return cr_fail(r, "%s", err);
	return 0;
}

/* The control topics open, and the signals that end a recording caught:
 * 0, or the exit status. */
static int open_control(struct recorder *r)
{
	char err[512];
	if (cc_open(&r->ep, cc_domain_from_env(), CC_RECORDER, err, sizeof err) != 0)
		return cr_fail(r, "%s", err);
	if (!(r->procs = cr_processes_create(r->ep.status, r->ep.start)))
		return cr_fail(r, "out of memory");
	/* a closed terminal (SIGHUP) ends the recording as Ctrl-C does: by
	 * default it would kill the recorder, the session left recording */
	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	return 0;
}

/* Records until Ctrl-C, --duration, the command's exit or the consumer's
 * word (caret live), handing each chunk over when rotating; the command's
 * wait status in *child_status, and whether it exited on its own. The
 * seconds recorded. */
static double record_until_the_end(struct recorder *r, int *child_status, bool *exited_alone)
{
	const struct cr_record_options *o = r->o;
	r->started = caret_monotonic_ns();
	int64_t until = o->duration > 0 ? cr_after(r->started, o->duration) : INT64_MAX;
	int64_t next_chunk = cr_after(r->started, o->rotate_seconds);
	/* the replayed initialization in a chunk of its own: the chunks a
	 * consumer reads again and again are small */
	bool rotating = o->rotate_seconds > 0, consumer_done = false;
	if (rotating)
		consumer_done = hand_over_chunk(r, false) != 0;
	while (!g_stop && caret_monotonic_ns() < until && !session_lost(r) && !consumer_done) {
		cr_processes_update(r->procs, !o->command && !o->immediate);
		if (o->immediate)
			cr_start_waiting(r);
		cr_show_progress(r, "recording", (double)(caret_monotonic_ns() - r->started) / 1e9);
		if (r->child > 0 && waitpid(r->child, child_status, WNOHANG) == r->child) {
			r->child = 0;
			*exited_alone = true;
			break;
		}
		if (rotating && caret_monotonic_ns() >= next_chunk) {
			next_chunk = cr_after(next_chunk, o->rotate_seconds);
			consumer_done = hand_over_chunk(r, false) != 0;
			continue;
		}
		int64_t wait = (rotating ? next_chunk : INT64_MAX) - caret_monotonic_ns();
		caret_sleep_ms(wait < 200000000LL ? (wait > 0 ? (int)(wait / 1000000) : 0) : 200);
	}
	if (r->child > 0) { /* our command: stop it, then wait */
		kill(r->child, SIGINT);
		waitpid(r->child, child_status, 0);
		r->child = 0;
	}
	double recorded = (double)(caret_monotonic_ns() - r->started) / 1e9;
	cr_processes_update(r->procs, !o->command && !o->immediate);
	if (!o->command && !o->immediate)
		cr_send_end(r);
	/* what was recorded since the last chunk, unless the session is gone;
	 * stopped first, so that the last chunk holds every event the trace
	 * keeps (a run that ends after it would be in the trace, never looked at) */
	if (rotating && !consumer_done && r->lost_state == CR_SESSION_STARTED &&
	    cr_session_state(r->session) >= CR_SESSION_STOPPED) {
		cr_session_stop(r->session);
		hand_over_chunk(r, true);
	}
	return recorded;
}

static int run(struct recorder *r)
{
	const struct cr_record_options *o = r->o;
	int status = preflight(r);
	if (status || (status = open_control(r)))
		return status;
	if ((status = open_sessions(r)))
		return status;
	r->output_is_ours = !o->relayd; /* check_output: it did not exist */
	/* when none answers, the trace folder LTTng made goes with the session */
	bool start = !o->command && !o->immediate;
	if (start && (status = cr_find_processes(r))) {
		r->remove_output = true;
		return status;
	}
	CR_SAY(r, "session %s, trace in %s\n", r->session_name, r->output);
	if (o->relayd && o->rotate_seconds > 0)
		CR_SAY(r, "a chunk every %g s: watch them on the relay daemon's host (caret live "
			"--watch RELAYD_OUTPUT)\n", o->rotate_seconds);
	if (o->command) {
		r->child = launch(o);
		if (r->child < 0)
			return cr_fail(r, "cannot start %s: %s", o->command[0], strerror(errno));
	} else if (start && (status = cr_start_processes(r))) {
		return status;
	}
	int child_status = 0;
	bool exited_alone = false;
	double recorded = record_until_the_end(r, &child_status, &exited_alone);
	int rc = cr_finish(r, recorded);
	int cmd = o->command ? command_status(r, child_status, exited_alone) : 0;
	return cmd ? cmd : rc;
}

int cr_record_run(const struct cr_record_options *o)
{
	static struct recorder rec;
	struct recorder *r = &rec;

	memset(r, 0, sizeof *r);
	r->o = o;
	r->lost_state = CR_SESSION_STARTED;
	r->tty = isatty(STDERR_FILENO);
	default_names(r);
	/* liblttng-ctl writes its commands to the session daemon's socket
	 * without MSG_NOSIGNAL, and the session daemon hangs up mid-command
	 * when it cannot reach a relay daemon (--relayd to a host where none
	 * listens): SIGPIPE would kill the recorder there, its session left
	 * behind. Ignored, the write fails (EPIPE), the call returns an error
	 * and the session is destroyed below. */
	struct sigaction ignore = { .sa_handler = SIG_IGN }, pipe_was;
	sigaction(SIGPIPE, &ignore, &pipe_was);
	cr_session_quiet();
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
	if (r->remove_output && r->output_is_ours) /* a run that recorded nothing */
		cr_remove_tree(r->output);
	cr_lock_release(r->lock);
	sigaction(SIGPIPE, &pipe_was, NULL);
	return rc;
}
