/* check_requirements.h - `caret check --requirements FILE [--junit OUT]
 * TRACE...`: the architecture file's requirements judged on the traces
 * (docs/requirements.md). */
#ifndef CARET_CLI_CHECK_REQUIREMENTS_H
#define CARET_CLI_CHECK_REQUIREMENTS_H

#include "ca.h"

/* Exit 0 when every requirement holds, 3 when one is violated (caret
 * live's status for a missed deadline), 1 when none is violated but one
 * could not be judged (its path or callback not in the trace, no
 * instance of it, the file or the traces unreadable). */
int check_requirements(const char *file, const char *junit, char **traces, int n_traces,
	ca_load_options *load);

#endif
