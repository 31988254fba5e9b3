/*
 * schema_match.h - does an event class of a trace have the layout the
 * schema table gives its event? Field names in order, integer size,
 * signedness and display base, strings, the gid array.
 */
#ifndef CA_SCHEMA_MATCH_H
#define CA_SCHEMA_MATCH_H

#include <babeltrace2/babeltrace.h>
#include <stddef.h>

#include "schema.h"

/* 0 when payload (the event class's payload class, NULL for none) has
 * exactly the fields of ev; else -1 with the first difference in why,
 * e.g. "field 1 'version': expected string, got signed integer". */
int ca_schema_match(const bt_field_class *payload, const struct cs_event *ev,
	char *why, size_t why_size);

#endif
