/*
 * policy.c - the node policies' names, one table for the architecture
 * file, the CLI and caret live.
 */
#include <string.h>

#include "ca.h"

static const char *const names[] = {
	[CA_POLICY_CALLBACK_CHAIN] = "callback_chain",
	[CA_POLICY_USE_LATEST_MESSAGE] = "use_latest_message",
	[CA_POLICY_INHERIT_UNIQUE_STAMP] = "inherit_unique_stamp",
	[CA_POLICY_CONSUME_LATEST_MESSAGE] = "consume_latest_message",
};

int ca_policy_of_name(const char *name, ca_node_policy *policy)
{
	for (size_t k = 0; name && k < sizeof names / sizeof *names; k++)
		if (!strcmp(name, names[k])) {
			*policy = (ca_node_policy)k;
			return 0;
		}
	return -1;
}

const char *ca_policy_name(ca_node_policy policy)
{
	return policy >= 0 && (size_t)policy < sizeof names / sizeof *names ? names[policy] :
		"default";
}
