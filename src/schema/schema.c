/* schema.c - the runtime table of events.def. */
#include "schema.h"

#include <string.h>

/* One field array per event; a trailing sentinel keeps zero-field events
 * (rclcpp_executor_get_next_ready) valid C. */
#define CS_FIELD(type, name) { #name, CS_TYPE_##type },
#define CS_EVENT(provider, name, role, fields) \
	static const struct cs_field fields_##provider##_##name[] = { \
		fields { NULL, CS_TYPE_HEX64 } };
#include "events.def"
#undef CS_EVENT
#undef CS_FIELD

#define CS_FIELD(type, name)
#define CS_EVENT(provider, name, role, fields) \
	[CS_EV_##provider##_##name] = { \
		CS_EV_##provider##_##name, #provider, #name, #provider ":" #name, \
		CS_ROLE_##role, fields_##provider##_##name, \
		sizeof(fields_##provider##_##name) / sizeof(struct cs_field) - 1 },
const struct cs_event cs_events[CS_EVENT_COUNT] = {
#include "events.def"
};
#undef CS_EVENT
#undef CS_FIELD

const struct cs_event *cs_event_by_full_name(const char *full_name)
{
	if (!full_name)
		return NULL;
	for (size_t i = 0; i < CS_EVENT_COUNT; i++)
		if (strcmp(cs_events[i].full_name, full_name) == 0)
			return &cs_events[i];
	return NULL;
}

int cs_field_index(const struct cs_event *ev, const char *name)
{
	for (size_t i = 0; i < ev->field_count; i++)
		if (strcmp(ev->fields[i].name, name) == 0)
			return (int)i;
	return -1;
}

unsigned cs_type_bits(enum cs_type type)
{
	switch (type) {
	case CS_TYPE_I32: return 32;
	case CS_TYPE_GID:
	case CS_TYPE_GID16: return 8;
	case CS_TYPE_STR: return 0;
	default: return 64;
	}
}

bool cs_type_is_signed(enum cs_type type)
{
	return type == CS_TYPE_I64 || type == CS_TYPE_I32;
}

bool cs_type_is_integer(enum cs_type type)
{
	return type != CS_TYPE_STR && !cs_gid_length(type);
}

unsigned cs_type_display_base(enum cs_type type)
{
	return type == CS_TYPE_HEX64 ? 16 : 10;
}

const char *cs_type_name(enum cs_type type)
{
	switch (type) {
	case CS_TYPE_HEX64: return "hex64";
	case CS_TYPE_U64: return "u64";
	case CS_TYPE_I64: return "i64";
	case CS_TYPE_I32: return "i32";
	case CS_TYPE_STR: return "str";
	case CS_TYPE_GID: return "u8[24]";
	case CS_TYPE_GID16: return "u8[16]";
	}
	return "?";
}

bool cs_role_is_runtime(enum cs_role role)
{
	return role == CS_ROLE_RUNTIME || role == CS_ROLE_MERGED;
}

const char *cs_role_name(enum cs_role role)
{
	switch (role) {
	case CS_ROLE_INIT: return "init";
	case CS_ROLE_RUNTIME: return "runtime";
	case CS_ROLE_MERGED: return "merged";
	case CS_ROLE_META: return "meta";
	}
	return "?";
}
