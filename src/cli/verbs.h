/* verbs.h - one function per `caret` verb: (argc, argv) from the verb on. */
#ifndef CARET_CLI_VERBS_H
#define CARET_CLI_VERBS_H

int caret_cmd_record(int argc, char **argv);
int caret_cmd_summary(int argc, char **argv);
int caret_cmd_check(int argc, char **argv);
int caret_cmd_arch(int argc, char **argv);
int caret_cmd_latency(int argc, char **argv);
int caret_cmd_path(int argc, char **argv);
int caret_cmd_report(int argc, char **argv);
int caret_cmd_export(int argc, char **argv);

#endif
