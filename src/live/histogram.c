/* histogram.c - see histogram.h. */
#include "histogram.h"

#include <string.h>

/* Around a deadline D, in thousandths of it: fine below it, where most
 * samples fall, a bound at D, and a few multiples to say by how much a
 * miss missed. */
static const int64_t deadline_permille[] = { 1, 2, 5, 10, 20, 50, 100, 200, 300, 400, 500,
	600, 700, 800, 900, 1000, 1100, 1200, 1500, 2000, 3000, 5000, 10000 };

/* Without a deadline: 1, 2, 5 a decade from 10 us to 10 s. */
static const int64_t default_ns[] = { 10000, 20000, 50000, 100000, 200000, 500000,
	1000000, 2000000, 5000000, 10000000, 20000000, 50000000, 100000000, 200000000,
	500000000, 1000000000, 2000000000, 5000000000, 10000000000 };

void live_histogram_init(struct live_histogram *h, int64_t deadline_ns)
{
	memset(h, 0, sizeof *h);
	if (deadline_ns <= 0) {
		h->n_bounds = sizeof default_ns / sizeof *default_ns;
		memcpy(h->bounds_ns, default_ns, sizeof default_ns);
		return;
	}
	for (size_t i = 0; i < sizeof deadline_permille / sizeof *deadline_permille; i++) {
		/* a deadline of a few ns makes equal or zero bounds: once each */
		int64_t b = deadline_ns / 1000 * deadline_permille[i] +
			deadline_ns % 1000 * deadline_permille[i] / 1000;
		if (b > 0 && (!h->n_bounds || b > h->bounds_ns[h->n_bounds - 1]))
			h->bounds_ns[h->n_bounds++] = b;
	}
}

void live_histogram_add(struct live_histogram *h, int64_t ns)
{
	size_t lo = 0, hi = h->n_bounds; /* the first bound >= ns, or n_bounds */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (h->bounds_ns[mid] >= ns)
			hi = mid;
		else
			lo = mid + 1;
	}
	h->counts[lo]++;
	h->count++;
	h->sum_ns += ns > 0 ? (uint64_t)ns : 0;
}
