/*
 * record.h - one stored ros2_caret event: its schema id and its field
 * values in schema order (init_timestamp last for initialization events).
 * Strings point into the initialization store's own memory.
 */
#ifndef CT_RECORD_H
#define CT_RECORD_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "schema.h"

union ct_value {
	uint64_t u;
	int64_t i;
	const char *s;
};

struct ct_record {
	enum cs_event_id id;
	union ct_value v[CS_MAX_FIELDS];
};

/* "/namespace/name" of an rcl_node_init record, into buf. */
static inline void ct_record_node_fqn(const struct ct_record *r, char *buf, size_t size)
{
	const char *ns = r->v[3].s ? r->v[3].s : "/";
	snprintf(buf, size, "%s/%s", strcmp(ns, "/") ? ns : "", r->v[2].s ? r->v[2].s : "");
}

#endif
