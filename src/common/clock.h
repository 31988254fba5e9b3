/*
 * clock.h - CLOCK_MONOTONIC in nanoseconds (the clock LTTng stamps events
 * with) and a millisecond sleep, for the command-line tools.
 */
#ifndef CARET_COMMON_CLOCK_H
#define CARET_COMMON_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline int64_t caret_monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline void caret_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };
	nanosleep(&ts, NULL);
}

#endif
