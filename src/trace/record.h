/*
 * record.h - one stored ros2_caret event: its schema id and its field
 * values in schema order (init_timestamp last for initialization events).
 * Strings point into the initialization store's own memory.
 */
#ifndef CT_RECORD_H
#define CT_RECORD_H

#include <stdint.h>

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

#endif
