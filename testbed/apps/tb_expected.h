/*
 * tb_expected.h - the value every field gets in the schema round trip.
 *
 * tb_emit_all writes, and the schema check expects, a value derived only from
 * the event's full name and the field's name, so a field written into the
 * wrong slot, truncated or sign-mangled is caught.
 */
#ifndef TB_EXPECTED_H
#define TB_EXPECTED_H

#include <stdbool.h>
#include <stdint.h>

#define TB_GID_LENGTH 24

uint64_t tb_expected_u64(const char *full_event, const char *field);
int64_t tb_expected_i64(const char *full_event, const char *field);
int32_t tb_expected_i32(const char *full_event, const char *field);
void tb_expected_gid(const char *full_event, const char *field,
	uint8_t gid[TB_GID_LENGTH]);

/* Strings are "<full_event>.<field>", which the emitter writes as literals. */
#define TB_EXPECTED_STR(full_event, field) full_event "." field

/* ros2 fields that tracetools receives as bool and records as i32 1/0. */
bool tb_field_is_bool_arg(const char *full_event, const char *field);

#endif
