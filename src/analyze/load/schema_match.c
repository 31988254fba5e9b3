/* schema_match.c - see schema_match.h. */
#include "schema_match.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *class_type_name(bt_field_class_type t)
{
	switch (t) {
	case BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER: return "unsigned integer";
	case BT_FIELD_CLASS_TYPE_SIGNED_INTEGER: return "signed integer";
	case BT_FIELD_CLASS_TYPE_STRING: return "string";
	case BT_FIELD_CLASS_TYPE_STATIC_ARRAY: return "static array";
	default: return "another type";
	}
}

static int match_integer(const bt_field_class *fc, enum cs_type type,
	char *why, size_t n)
{
	bt_field_class_type want = cs_type_is_signed(type) ?
		BT_FIELD_CLASS_TYPE_SIGNED_INTEGER :
		BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER;
	bt_field_class_type got = bt_field_class_get_type(fc);

	if (got != want) {
		snprintf(why, n, "expected %s, got %s", class_type_name(want),
			class_type_name(got));
		return -1;
	}
	uint64_t bits = bt_field_class_integer_get_field_value_range(fc);
	if (bits != cs_type_bits(type)) {
		snprintf(why, n, "expected %u bits, got %" PRIu64,
			cs_type_bits(type), bits);
		return -1;
	}
	bool hex = bt_field_class_integer_get_preferred_display_base(fc) ==
		BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_HEXADECIMAL;
	if (hex != (cs_type_display_base(type) == 16)) {
		snprintf(why, n, "expected display base %u",
			cs_type_display_base(type));
		return -1;
	}
	return 0;
}

static int match_field(const bt_field_class *fc, enum cs_type type,
	char *why, size_t n)
{
	bt_field_class_type got = bt_field_class_get_type(fc);

	if (cs_type_is_integer(type))
		return match_integer(fc, type, why, n);
	if (type == CS_TYPE_STR) {
		if (got == BT_FIELD_CLASS_TYPE_STRING)
			return 0;
		snprintf(why, n, "expected string, got %s", class_type_name(got));
		return -1;
	}
	if (got != BT_FIELD_CLASS_TYPE_STATIC_ARRAY ||
	    bt_field_class_array_static_get_length(fc) != cs_gid_length(type)) {
		snprintf(why, n, "expected u8[%u], got %s", cs_gid_length(type),
			class_type_name(got));
		return -1;
	}
	return match_integer(
		bt_field_class_array_borrow_element_field_class_const(fc), type,
		why, n);
}

int ca_schema_match(const bt_field_class *payload, const struct cs_event *ev,
	char *why, size_t why_size)
{
	uint64_t members = payload ?
		bt_field_class_structure_get_member_count(payload) : 0;
	char detail[160];

	if (members != ev->field_count) {
		snprintf(why, why_size, "%" PRIu64 " fields, the schema has %zu",
			members, ev->field_count);
		return -1;
	}
	for (uint64_t i = 0; i < members; i++) {
		const bt_field_class_structure_member *m =
			bt_field_class_structure_borrow_member_by_index_const(payload, i);
		const char *name = bt_field_class_structure_member_get_name(m);
		if (strcmp(name, ev->fields[i].name) != 0) {
			snprintf(why, why_size, "field %" PRIu64 " is '%s', the "
				"schema says '%s'", i, name, ev->fields[i].name);
			return -1;
		}
		if (match_field(bt_field_class_structure_member_borrow_field_class_const(m),
				ev->fields[i].type, detail, sizeof detail) != 0) {
			snprintf(why, why_size, "field %" PRIu64 " '%s': %s", i,
				name, detail);
			return -1;
		}
	}
	return 0;
}
