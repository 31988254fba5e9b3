/* latency_actions.h - `caret latency actions`, a part of cmd_latency.c. */
#ifndef CARET_CLI_LATENCY_ACTIONS_H
#define CARET_CLI_LATENCY_ACTIONS_H

#include <stdio.h>

#include "cli_util.h"

/* Per action, client and server: each goal's send_goal and get_result
 * round trips and its goal-to-result time; every goal as CSV to records
 * (if not NULL). 0, or 1 with a message on stderr. */
int cli_latency_actions(const ca_trace *t, enum cli_format f, FILE *records,
	ca_percentile_method percentiles);

#endif
