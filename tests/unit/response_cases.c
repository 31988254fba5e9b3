/*
 * response_cases.c - ca_response_times on messages read from stdin, for
 * response_vs_original.py: one message per line, "START END" (END 0: the
 * message has no output). Prints "CASE INPUT TIME" per response time.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "ca.h"

int main(void)
{
	static const char *const names[] = { "all", "best", "worst",
		"worst-with-external-latency" };
	size_t n = 0, cap = 0;
	ca_path_message *m = NULL;
	uint64_t s, e;
	while (scanf("%" SCNu64 " %" SCNu64, &s, &e) == 2) {
		if (n == cap && !(m = realloc(m, (cap = 2 * cap + 16) * sizeof *m)))
			return 1;
		/* the default span: from the publish to the last callback's start */
		m[n++] = (ca_path_message){ .publish = s, .last_start = e };
	}
	uint64_t *inputs = malloc((n + 1) * sizeof *inputs);
	int64_t *times = malloc((n + 1) * sizeof *times);
	if (!inputs || !times)
		return 1;
	for (int c = CA_RESPONSE_ALL; c <= CA_RESPONSE_WORST_WITH_EXTERNAL_LATENCY; c++) {
		size_t k = ca_response_times(m, n, (ca_path_span){ false, false }, (ca_response_case)c,
			inputs, times);
		if (k == (size_t)-1)
			return 1;
		for (size_t i = 0; i < k; i++)
			printf("%s %" PRIu64 " %" PRId64 "\n", names[c], inputs[i], times[i]);
	}
	free(m);
	free(inputs);
	free(times);
	return 0;
}
