/*
 * bench_analyze - times libcaret-analyze on a trace: load (CTF reader,
 * columnar tables, architecture, check), then the records (every
 * callback run, publish and communication joined), then one path's
 * end-to-end latency; prints the seconds of each and the peak resident
 * memory.
 *
 * The reader is the native one, or libbabeltrace2's with
 * CARET_BENCH_READER=babeltrace2 in the environment.
 *
 * usage: bench_analyze TRACE [NODE,NODE,...]
 *   prints "LOAD_S RECORDS_S PATH_S EVENTS MAXRSS_KB INSTANCES"
 *        bench_analyze --search FROM TO MAX_DEPTH MAX_PATHS TRACE
 *   prints "LOAD_S SEARCH_S PATHS DEPTH_CUT COUNT_CUT MAXRSS_KB NODES"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "ca.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static ca_trace *load(const char *path, char *err, size_t err_size)
{
	const char *reader = getenv("CARET_BENCH_READER");
	return ca_trace_load_with(&path, 1, reader && !strcmp(reader, "babeltrace2") ?
		CA_READER_BABELTRACE2 : CA_READER_NATIVE, err, err_size);
}

static int search(char **argv)
{
	char err[1024];
	struct rusage ru;
	double t0 = now();
	ca_trace *t = load(argv[5], err, sizeof err);
	double t1 = now();
	ca_path_set *set = t ? ca_path_search(t, argv[1], argv[2], (size_t)atol(argv[3]),
		(size_t)atol(argv[4]), err, sizeof err) : NULL;
	double t2 = now();
	if (!set) {
		fprintf(stderr, "bench_analyze: %s\n", err);
		return 1;
	}
	const ca_path *p;
	size_t n = ca_path_set_paths(set, &p);
	getrusage(RUSAGE_SELF, &ru);
	printf("%.3f %.6f %zu %d %d %ld %zu\n", t1 - t0, t2 - t1, n, ca_path_set_depth_cut(set),
		ca_path_set_count_cut(set), ru.ru_maxrss, ca_trace_architecture(t)->n_nodes);
	ca_path_set_free(set);
	ca_trace_free(t);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 7 && !strcmp(argv[1], "--search"))
		return search(argv + 1);
	char err[1024], *nodes[32];
	size_t n_nodes = 0;
	struct rusage ru;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: bench_analyze TRACE [NODE,NODE,...]\n");
		return 2;
	}
	for (char *s = argc == 3 ? strtok(argv[2], ",") : NULL; s && n_nodes < 32; s = strtok(NULL, ","))
		nodes[n_nodes++] = s;
	double t0 = now();
	ca_trace *t = load(argv[1], err, sizeof err);
	double t1 = now();
	ca_records *r = t ? ca_records_build(t, err, sizeof err) : NULL;
	double t2 = now();
	ca_path_set *set = r && n_nodes ? ca_path_of_nodes(t, (const char *const *)nodes, n_nodes,
		err, sizeof err) : NULL;
	const ca_path *p = NULL;
	ca_path_set_paths(set, &p);
	ca_path_latency *l = set ? ca_path_latency_build(r, p, CA_POLICY_USE_LATEST_MESSAGE, err,
		sizeof err) : NULL;
	double t3 = now();
	if (!r || (n_nodes && !l)) {
		fprintf(stderr, "bench_analyze: %s\n", err);
		return 1;
	}
	const ca_path_message *messages;
	const ca_path_span whole = { true, true };
	size_t instances = ca_path_latency_messages(l, &messages, NULL) -
		(size_t)ca_path_latency_lost(l, whole); /* those that reached the end */
	getrusage(RUSAGE_SELF, &ru);
	printf("%.3f %.3f %.3f %llu %ld %zu\n", t1 - t0, t2 - t1, t3 - t2,
		(unsigned long long)ca_trace_event_count(t), ru.ru_maxrss, instances);
	ca_path_latency_free(l);
	ca_path_set_free(set);
	ca_records_free(r);
	ca_trace_free(t);
	return 0;
}
