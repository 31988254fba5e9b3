/*
 * tb-launch - starts every process of a testbed system, optionally with a
 * preloaded library, runs them for a duration or until SIGINT/SIGTERM, then
 * stops them in start order (SIGINT, then SIGKILL after a grace period),
 * reports every process that failed and exits non-zero if one did.
 * Children die with the launcher (PR_SET_PDEATHSIG) and each runs in its own
 * process group, so nothing is left behind even when a process crashes.
 *
 * usage: see usage() or docs/testbed.md
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

#include "system.h"

#define GRACE_NS 5000000000LL

struct child {
	const struct tb_sys_process *proc;
	pid_t pid;
	bool running;
	int status;
	bool stopped_by_us, killed_by_us;
};

static volatile sig_atomic_t g_stop;

static void on_signal(int sig)
{
	(void)sig;
	g_stop = 1;
}


static int usage(FILE *out)
{
	fprintf(out,
		"usage: tb-launch SYSTEM [--duration S] [--preload LIB] [--truth DIR]\n"
		"                 [--pid-file FILE] [--app PATH] [--check]\n"
		"  SYSTEM          a system description (YAML, docs/testbed.md)\n"
		"  --duration S    run S seconds (default: until SIGINT/SIGTERM)\n"
		"  --preload LIB   start every process with LD_PRELOAD=LIB\n"
		"  --truth DIR     each process writes its ground truth (CSV) in DIR\n"
		"  --pid-file FILE write 'PROCESS PID' lines once all are started\n"
		"  --app PATH      the testbed app (default: tb_app beside tb-launch)\n"
		"  --check         only load and check the description\n");
	return out == stdout ? 0 : 2;
}

static void default_app(char *out, size_t size)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0) {
		snprintf(out, size, "tb_app");
		return;
	}
	self[n] = '\0';
	snprintf(out, size, "%s/tb_app", dirname(self));
}

/* In the child: never returns. */
static void exec_process(const struct tb_sys_process *p, const char *system,
	const char *app, const char *preload, const char *truth, pid_t launcher)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != launcher) /* the launcher died before prctl */
		_exit(127);
	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (preload) {
		const char *old = getenv("LD_PRELOAD");
		char *value = NULL;
		if (asprintf(&value, "%s%s%s", preload, old && *old ? ":" : "",
			     old ? old : "") < 0)
			_exit(127);
		setenv("LD_PRELOAD", value, 1);
	}
	if (p->command.count) {
		execvp(p->command.items[0], p->command.items);
		fprintf(stderr, "tb-launch: %s: cannot execute %s: %s\n", p->name,
			p->command.items[0], strerror(errno));
		_exit(127);
	}
	const char *argv[8] = { app, system, "--process", p->name };
	int argc = 4;
	if (truth) {
		argv[argc++] = "--truth";
		argv[argc++] = truth;
	}
	argv[argc] = NULL;
	execv(app, (char *const *)argv);
	fprintf(stderr, "tb-launch: %s: cannot execute %s: %s\n", p->name, app,
		strerror(errno));
	_exit(127);
}

/* Reaps exited children; returns how many are still running. An exited
 * child's process group is killed before the child is reaped, while its pid
 * cannot yet be reused: a 'command' may have left processes behind. */
static size_t reap(struct child *c, size_t n)
{
	siginfo_t info;
	size_t running = 0;

	for (;;) {
		memset(&info, 0, sizeof info);
		if (waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
		    info.si_pid == 0)
			break;
		kill(-info.si_pid, SIGKILL);
		int status;
		if (waitpid(info.si_pid, &status, 0) != info.si_pid)
			break;
		for (size_t i = 0; i < n; i++)
			if (c[i].pid == info.si_pid) {
				c[i].running = false;
				c[i].status = status;
			}
	}
	for (size_t i = 0; i < n; i++)
		running += c[i].running;
	return running;
}

static void stop_all(struct child *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (c[i].running) {
			c[i].stopped_by_us = true;
			kill(-c[i].pid, SIGINT);
		}
	int64_t deadline = caret_monotonic_ns() + GRACE_NS;
	while (reap(c, n) && caret_monotonic_ns() < deadline)
		caret_sleep_ms(10);
	for (size_t i = 0; i < n; i++)
		if (c[i].running) {
			c[i].killed_by_us = true;
			kill(-c[i].pid, SIGKILL);
		}
	while (reap(c, n))
		caret_sleep_ms(10);
}

/* Prints a line for each failed process; returns how many failed. */
static int report(const struct child *c, size_t n)
{
	int failed = 0;

	for (size_t i = 0; i < n; i++) {
		const struct child *x = &c[i];
		const char *name = x->proc->name;
		if (x->pid <= 0) {
			fprintf(stderr, "tb-launch: %s: not started\n", name);
			failed++;
		} else if (x->killed_by_us) {
			fprintf(stderr, "tb-launch: %s (pid %d): did not stop within %lld s "
				"of SIGINT, killed\n", name, x->pid, GRACE_NS / 1000000000);
			failed++;
		} else if (WIFSIGNALED(x->status) &&
			   !(x->stopped_by_us && WTERMSIG(x->status) == SIGINT)) {
			fprintf(stderr, "tb-launch: %s (pid %d): killed by signal %d (%s)%s\n",
				name, x->pid, WTERMSIG(x->status),
				strsignal(WTERMSIG(x->status)),
				WCOREDUMP(x->status) ? ", core dumped" : "");
			failed++;
		} else if (WIFEXITED(x->status) && WEXITSTATUS(x->status) != 0) {
			fprintf(stderr, "tb-launch: %s (pid %d): exited with status %d%s\n",
				name, x->pid, WEXITSTATUS(x->status),
				WEXITSTATUS(x->status) == 127 ? " (cannot execute)" : "");
			failed++;
		}
	}
	return failed;
}

int main(int argc, char **argv)
{
	const char *system = NULL, *preload = NULL, *truth = NULL, *pid_file = NULL;
	char app[PATH_MAX] = "";
	double duration = 0;
	bool check_only = false;
	char err[1024];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--duration") && i + 1 < argc)
			duration = atof(argv[++i]);
		else if (!strcmp(argv[i], "--preload") && i + 1 < argc)
			preload = argv[++i];
		else if (!strcmp(argv[i], "--truth") && i + 1 < argc)
			truth = argv[++i];
		else if (!strcmp(argv[i], "--pid-file") && i + 1 < argc)
			pid_file = argv[++i];
		else if (!strcmp(argv[i], "--app") && i + 1 < argc)
			snprintf(app, sizeof app, "%s", argv[++i]);
		else if (!strcmp(argv[i], "--check"))
			check_only = true;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return usage(stdout);
		else if (argv[i][0] != '-' && !system)
			system = argv[i];
		else
			return usage(stderr);
	}
	if (!system)
		return usage(stderr);

	struct tb_system *sys = tb_system_load(system, err, sizeof err);
	if (!sys) {
		fprintf(stderr, "tb-launch: %s\n", err);
		return 2;
	}
	if (check_only) {
		printf("%s: system %s, %zu processes: ok\n", system, sys->name,
			sys->n_processes);
		tb_system_free(sys);
		return 0;
	}
	if (!*app)
		default_app(app, sizeof app);
	if (preload && access(preload, R_OK) != 0) {
		fprintf(stderr, "tb-launch: --preload %s: %s\n", preload, strerror(errno));
		tb_system_free(sys);
		return 2;
	}
	char abs_preload[PATH_MAX];
	if (preload && realpath(preload, abs_preload))
		preload = abs_preload;

	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	struct child *c = calloc(sys->n_processes, sizeof *c);
	pid_t self = getpid();
	size_t started = 0;
	for (size_t i = 0; i < sys->n_processes; i++, started++) {
		c[i].proc = &sys->processes[i];
		c[i].pid = fork();
		if (c[i].pid == 0)
			exec_process(c[i].proc, system, app, preload, truth, self);
		if (c[i].pid < 0) {
			fprintf(stderr, "tb-launch: fork: %s\n", strerror(errno));
			break;
		}
		c[i].running = true;
	}
	if (pid_file) {
		FILE *f = fopen(pid_file, "w");
		for (size_t i = 0; f && i < started; i++)
			fprintf(f, "%s %d\n", c[i].proc->name, c[i].pid);
		if (f)
			fclose(f);
	}

	/* Run until the duration ends, a signal, or a process ends early. */
	int64_t deadline = duration > 0 ? caret_monotonic_ns() + (int64_t)(duration * 1e9) : INT64_MAX;
	while (!g_stop && caret_monotonic_ns() < deadline && started == sys->n_processes &&
	       reap(c, started) == started)
		caret_sleep_ms(20);
	stop_all(c, started);

	int failed = report(c, sys->n_processes);
	fprintf(stderr, "tb-launch: %s: %zu processes, %s\n", sys->name,
		sys->n_processes, failed ? "some failed" : "all stopped cleanly");
	free(c);
	tb_system_free(sys);
	return failed ? 1 : 0;
}
