/*
 * plan.c - what records that follow a path ask of the path stage
 * (records.h's ca_follow_planner): the topic between two nodes and the
 * longest chain, from the architecture alone.
 */
#include "path.h"
#include "records.h"

static const char *shared_topic(const ca_architecture *a, const char *from, const char *to)
{
	char err[256];
	return ca_path_shared_topic(a, from, to, err, sizeof err);
}

static void free_owner(void *owner)
{
	ca_path_set_free(owner);
}

static bool longest(const ca_architecture *a, const ca_path **path, void **owner)
{
	ca_path_set *set = ca_path_longest_of(a, NULL, false);
	*owner = set;
	return set && ca_path_set_paths(set, path);
}

const struct ca_follow_planner ca_path_planner = { shared_topic, longest, free_owner };
