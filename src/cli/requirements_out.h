/* requirements_out.h - what caret check --requirements says of each
 * requirement judged (check_requirements.c): its lines of text, the JUnit
 * XML a CI system reads, the result line and the exit status. */
#ifndef CARET_CLI_REQUIREMENTS_OUT_H
#define CARET_CLI_REQUIREMENTS_OUT_H

#include <stdbool.h>
#include <stddef.h>

#include "ca.h"
#include "requirements.h"

/* One requirement judged: its verdicts, or why it could not be. */
struct judged {
	const ca_requirement *q;
	ca_path_set *set;      /* a path's, from the file */
	bool missing;          /* its object is not in the trace: why says so */
	char why[1024];
	size_t n;
	ca_verdict v[3];
};

/* Its lines on stdout: PASS, FAIL or NONE per bound, or MISSING. */
void print_judged(const struct judged *j);
/* The result line on stdout; the exit status: 3 when a bound failed, else
 * 1 when one could not be judged, else 0. */
int requirements_verdict(const struct judged *j, size_t n);
/* The verdicts as JUnit XML into path (file: the requirements' file, for
 * the suite's name): 0, or 1 after a message. */
int write_junit(const char *path, const char *file, const struct judged *j, size_t n);

#endif
