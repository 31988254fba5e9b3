/* ros2caret_out.h - what the original's verbs (`ros2 caret`, tier4/ros2caret)
 * print, for caret-c's verbs under their names: its logger's lines,
 * tabulate's "presto" table, caret check's findings as its warnings, and
 * the option -m they share. */
#ifndef CARET_CLI_ROS2CARET_OUT_H
#define CARET_CLI_ROS2CARET_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ca.h"

enum ros2caret_level { ROS2CARET_INFO, ROS2CARET_WARNING, ROS2CARET_ERROR };

/* One line on stderr as the original's logger writes it: the level padded
 * to 8, the local time, the text ("WARNING : 2026-11-21 13:44:38 | ..."). */
void ros2caret_log(enum ros2caret_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A two-column table as tabulate(..., tablefmt='presto', showindex=False)
 * prints it: the names left-aligned, the counts right-aligned, a column as
 * wide as its widest cell or its header and two spaces. */
void ros2caret_table(FILE *out, const char *name_header, const char *count_header,
	const char *const *names, const uint64_t *counts, size_t n);

/* caret check's warnings and errors (ca_trace_findings) as logger lines,
 * a process's prefixed with "process PID (NAME): "; the counts of each. */
void ros2caret_log_findings(const ca_trace *t, size_t *warnings, size_t *errors);

/* The original's -m / --max_callback_construction_order_on_path_searching
 * value: a whole number from 0 to 2^31-1 (the original's int). It bounds
 * the original's path search only; accepted, else a usage message; 0 or 2. */
int ros2caret_check_max_order(const char *verb, const char *arg);

#endif
