/* verbs.h - one function per `caret` verb: (argc, argv) from the verb on,
 * and the load options main.c took off them (--reader, the window); each
 * verb parses the rest into an options struct of its own, then runs. */
#ifndef CARET_CLI_VERBS_H
#define CARET_CLI_VERBS_H

#include "ca.h"

int caret_cmd_record(int argc, char **argv, const ca_load_options *load);
int caret_cmd_summary(int argc, char **argv, const ca_load_options *load);
int caret_cmd_check(int argc, char **argv, const ca_load_options *load);
int caret_cmd_arch(int argc, char **argv, const ca_load_options *load);
int caret_cmd_latency(int argc, char **argv, const ca_load_options *load);
int caret_cmd_path(int argc, char **argv, const ca_load_options *load);
int caret_cmd_compare(int argc, char **argv, const ca_load_options *load);
int caret_cmd_report(int argc, char **argv, const ca_load_options *load);
int caret_cmd_export(int argc, char **argv, const ca_load_options *load);
int caret_cmd_live(int argc, char **argv, const ca_load_options *load);
int caret_cmd_env(int argc, char **argv, const ca_load_options *load);
/* caret --version */
int caret_print_version(void);

/* The original's verbs (ros2 caret VERB) under their names and options,
 * each onto the options of a verb above (docs/migrating.md). */
int caret_cmd_check_ctf(int argc, char **argv, const ca_load_options *load);
int caret_cmd_check_caret_rclcpp(int argc, char **argv, const ca_load_options *load);
int caret_cmd_create_architecture_file(int argc, char **argv, const ca_load_options *load);
int caret_cmd_node_summary(int argc, char **argv, const ca_load_options *load);
int caret_cmd_topic_summary(int argc, char **argv, const ca_load_options *load);
int caret_cmd_trace_point_summary(int argc, char **argv, const ca_load_options *load);
int caret_cmd_verify_paths(int argc, char **argv, const ca_load_options *load);
/* caret version: the version alone, as the original's */
int caret_cmd_version(int argc, char **argv, const ca_load_options *load);

#endif
