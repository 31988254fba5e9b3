/*
 * path_split.c - `caret path latency --split`: each topic hop of a path
 * in the three parts of where its messages waited (ca_path_hop_split).
 */
#include <stdlib.h>

#include "path_split.h"

const char *const path_split_names[PATH_SPLIT_PARTS] = {
	"publish_to_write", "write_to_reception", "reception_to_callback",
};

size_t path_split_hop(const ca_hop_splitter *s, const ca_path_latency *l, size_t hop,
	ca_percentile_method pm, ca_stats stats[PATH_SPLIT_PARTS])
{
	const ca_path_message *m;
	size_t n = ca_path_latency_messages(l, &m, NULL), count = 0;
	int64_t *v[PATH_SPLIT_PARTS];
	bool ok = true;
	for (int p = 0; p < PATH_SPLIT_PARTS; p++)
		ok &= (v[p] = malloc((n + 1) * sizeof *v[p])) != NULL;
	for (size_t i = 0; ok && i < n; i++) {
		ca_message_hops h;
		if (!ca_path_hop_split(s, l, i, hop, &h))
			continue;
		v[0][count] = h.to_write;
		v[1][count] = h.in_middleware;
		v[2][count++] = h.to_callback;
	}
	for (int p = 0; p < PATH_SPLIT_PARTS; p++) {
		ca_stats_select(v[p], count, pm, &stats[p]);
		free(v[p]);
	}
	return ok ? count : (size_t)-1;
}
