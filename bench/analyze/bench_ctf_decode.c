/*
 * bench_ctf_decode TRACE - the native CTF reader alone (ctf_native.c): every
 * event decoded and merged in time order, handed to a handler that only
 * counts; prints "SECONDS EVENTS".
 */
#include <stdio.h>
#include <time.h>

#include "ctf_native.h"

static int count(const struct ctf_event *e, const struct ctf_meta *m, void *user)
{
	(void)e;
	(void)m;
	++*(unsigned long long *)user;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long events = 0;
	struct ctf_native_handlers h = { .on_event = count, .user = &events };
	char err[2048];
	struct timespec a, b;
	if (argc != 2) {
		fprintf(stderr, "usage: bench_ctf_decode TRACE\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (ctf_native_iterate(argv[1], &h, err, sizeof err) != 0) {
		fprintf(stderr, "bench_ctf_decode: %s\n", err);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.3f %llu\n", (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9,
		events);
	return 0;
}
