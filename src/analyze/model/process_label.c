/*
 * process_label.c - a process named by what it runs (ca.h,
 * ca_process_label): "nc_chain (pid 1234): /sensor, /filter", the user's
 * nodes in it, so that two processes of one program are told apart.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ca.h"

/* Nodes named in full before "and N more". */
#define NODES_NAMED 4

size_t ca_process_nodes(const ca_architecture *a, size_t process, char *buf, size_t size)
{
	int64_t pid = a->processes[process].pid;
	size_t used = 0, named = 0, more = 0;
	buf[0] = 0;
	for (size_t i = 0; i < a->n_nodes && used < size; i++) {
		if (a->nodes[i].pid != pid || a->nodes[i].hidden)
			continue;
		bool seen = false; /* a name made twice (churn): once */
		for (size_t k = 0; k < i && !seen; k++)
			seen = a->nodes[k].pid == pid && !strcmp(a->nodes[k].fqn, a->nodes[i].fqn);
		if (seen)
			continue;
		if (named == NODES_NAMED) {
			more++;
			continue;
		}
		used += (size_t)snprintf(buf + used, size - used, "%s%s", named ? ", " : "",
			a->nodes[i].fqn);
		named++;
	}
	if (more && used < size)
		used += (size_t)snprintf(buf + used, size - used, " and %zu more", more);
	if (!named && used < size)
		used += (size_t)snprintf(buf + used, size - used, "no node");
	return used < size ? used : size - 1;
}

size_t ca_process_label(const ca_architecture *a, size_t process, char *buf, size_t size)
{
	const ca_process *p = &a->processes[process];
	size_t used = (size_t)snprintf(buf, size, "%s (pid %" PRId64 "): ",
		p->procname ? p->procname : "?", p->pid);
	if (used >= size)
		return size - 1;
	return used + ca_process_nodes(a, process, buf + used, size - used);
}
