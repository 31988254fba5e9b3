/* tb_expected.c - see tb_expected.h. */
#include "tb_expected.h"

#include <string.h>

/* FNV-1a over "<full_event>.<field>". */
static uint64_t field_hash(const char *full_event, const char *field)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (const char *p = full_event; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
	h = (h ^ '.') * 0x100000001b3ull;
	for (const char *p = field; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
	return h;
}

uint64_t tb_expected_u64(const char *full_event, const char *field)
{
	/* Top bit set: a u64 read back as signed would show up negative. */
	return field_hash(full_event, field) | (1ull << 63);
}

int64_t tb_expected_i64(const char *full_event, const char *field)
{
	/* Negative, so a signed field read as unsigned is caught. */
	return -(int64_t)(field_hash(full_event, field) >> 2);
}

int32_t tb_expected_i32(const char *full_event, const char *field)
{
	return -(int32_t)(field_hash(full_event, field) & 0x3fffffff);
}

void tb_expected_gid(const char *full_event, const char *field,
	uint8_t gid[TB_GID_LENGTH])
{
	uint64_t h = field_hash(full_event, field);

	for (int i = 0; i < TB_GID_LENGTH; i++)
		gid[i] = (uint8_t)((h >> (8 * (i % 8))) + (uint64_t)i);
}

bool tb_field_is_bool_arg(const char *full_event, const char *field)
{
	return (strcmp(full_event, "ros2:rmw_take") == 0 &&
		strcmp(field, "taken") == 0) ||
	       (strcmp(full_event, "ros2:callback_start") == 0 &&
		strcmp(field, "is_intra_process") == 0);
}
