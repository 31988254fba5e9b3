/* summary_original.h - the original's node_summary, topic_summary and
 * trace_point_summary output (ros2caret's summary.py) over caret summary's
 * counts: the trace's dates and range, then a presto table sorted by
 * count. */
#ifndef CARET_CLI_SUMMARY_ORIGINAL_H
#define CARET_CLI_SUMMARY_ORIGINAL_H

#include <stdbool.h>

#include "ca.h"

enum summary_group { SUMMARY_NODE_NAME, SUMMARY_TOPIC_NAME, SUMMARY_TRACE_POINT };

/* Prints the summary of t grouped by `group` on stdout; with `filtered`
 * (a time window) the range of the callback runs it kept too. 0, or 1
 * after a one-line cause when there is nothing to count (no node, no
 * topic). */
int summary_print_original(const char *verb, const ca_trace *t, enum summary_group group,
	bool filtered);

#endif
