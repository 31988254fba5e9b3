/*
 * bench_analyze - loads traces with libcaret-analyze (babeltrace2 reader,
 * columnar tables, the architecture model, the check) and prints the
 * elapsed seconds, the events read and the peak resident memory.
 *
 * usage: bench_analyze TRACE...   prints "SECONDS EVENTS MAXRSS_KB"
 */
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#include "caret/analyze.h"

int main(int argc, char **argv)
{
	struct timespec a, b;
	struct rusage ru;
	char err[1024];

	if (argc < 2) {
		fprintf(stderr, "usage: bench_analyze TRACE...\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	ca_trace *t = ca_trace_load((const char *const *)argv + 1, (size_t)(argc - 1), err,
		sizeof err);
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (!t) {
		fprintf(stderr, "bench_analyze: %s\n", err);
		return 1;
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("%.3f %llu %ld\n", (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9,
		(unsigned long long)ca_trace_event_count(t), ru.ru_maxrss);
	ca_trace_free(t);
	return 0;
}
