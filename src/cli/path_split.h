/*
 * path_split.h - the parts of a path's topic hops (path_split.c).
 */
#ifndef CARET_CLI_PATH_SPLIT_H
#define CARET_CLI_PATH_SPLIT_H

#include "cli_util.h"

#define PATH_SPLIT_PARTS 3
extern const char *const path_split_names[PATH_SPLIT_PARTS];

/* The statistics of each part over the messages of topic hop `hop` that s
 * splits: how many, or (size_t)-1 out of memory. */
size_t path_split_hop(const ca_hop_splitter *s, const ca_path_latency *l, size_t hop,
	ca_percentile_method pm, ca_stats stats[PATH_SPLIT_PARTS]);

#endif
