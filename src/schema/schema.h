/*
 * schema.h - the event schema as a runtime table (built from events.def).
 *
 * Shared by the tracer's provider generator, the testbed and the analyzer:
 * one description of every event name and field, so a reader and a writer
 * cannot drift apart.
 */
#ifndef CARET_SCHEMA_H
#define CARET_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>

enum cs_type {
	CS_TYPE_HEX64, /* 64-bit unsigned, preferred display base 16 */
	CS_TYPE_U64,
	CS_TYPE_I64,
	CS_TYPE_I32,
	CS_TYPE_STR,
	CS_TYPE_GID,   /* static array of 24 unsigned 8-bit integers */
	CS_TYPE_GID16, /* static array of 16 (Kilted's tracetools and later) */
};

enum cs_role {
	CS_ROLE_INIT,    /* initialization data: rebuilds the architecture */
	CS_ROLE_RUNTIME, /* what happens while the system runs */
	CS_ROLE_MERGED,  /* our merged events, replacing runs of RUNTIME ones */
	CS_ROLE_META,    /* per-recording metadata (caret_init) */
};

/* Dense ids, in table order: CS_EV_ros2_rcl_init, CS_EV_ros2_caret_rcl_init... */
enum cs_event_id {
#define CS_FIELD(type, name)
#define CS_EVENT(provider, name, role, fields) CS_EV_##provider##_##name,
#include "events.def"
#undef CS_EVENT
#undef CS_FIELD
	CS_EVENT_COUNT
};

#define CS_GID_LENGTH 24
#define CS_GID16_LENGTH 16
/* The length of a GID type's array (0: not a GID). */
static inline unsigned cs_gid_length(enum cs_type type)
{
	return type == CS_TYPE_GID ? CS_GID_LENGTH : type == CS_TYPE_GID16 ? CS_GID16_LENGTH : 0;
}
#define CS_MAX_FIELDS 10 /* LTTng-UST takes at most 10 tracepoint arguments */

struct cs_field {
	const char *name;
	enum cs_type type;
};

struct cs_event {
	enum cs_event_id id;
	const char *provider;  /* "ros2" or "ros2_caret" */
	const char *name;      /* without provider: "rcl_init" */
	const char *full_name; /* as in the trace: "ros2:rcl_init" */
	enum cs_role role;
	const struct cs_field *fields;
	size_t field_count;
};

/* Every event, indexed by enum cs_event_id. */
extern const struct cs_event cs_events[CS_EVENT_COUNT];

/* The event named "provider:name" as it appears in a trace, or NULL. */
const struct cs_event *cs_event_by_full_name(const char *full_name);

/* Index of the field called name in ev, or -1. */
int cs_field_index(const struct cs_event *ev, const char *name);

/* Properties of a field type as LTTng writes it. For GIDs: of one element. */
unsigned cs_type_bits(enum cs_type type);
bool cs_type_is_signed(enum cs_type type);
bool cs_type_is_integer(enum cs_type type);
unsigned cs_type_display_base(enum cs_type type);
const char *cs_type_name(enum cs_type type); /* as in the reference: "hex64" */
const char *cs_role_name(enum cs_role role);
/* RUNTIME or MERGED: what happens while the system runs (the rest,
 * INIT and META, is kept whatever a time window says). */
bool cs_role_is_runtime(enum cs_role role);

#endif
