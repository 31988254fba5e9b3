/*
 * gid_key.h - a GID field's value in the tables, given by both readers
 * alike (ctf_stream.c for the native one, tables_bt.c for babeltrace2's).
 */
#ifndef CA_GID_KEY_H
#define CA_GID_KEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A GID field's value in the tables: a 64-bit key of its first 16 bytes
 * (FNV-1a; 0 for a GID of zeros), so that Humble's and Jazzy's u8[24] and
 * Kilted's u8[16] name one DDS entity alike (rmw's GIDs are 16 bytes since
 * Iron; the rest of a u8[24] is zeros or past the rmw's array). */
static inline uint64_t ca_gid_key(const uint8_t *bytes, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	bool zeros = true;
	for (size_t i = 0; i < n && i < 16; i++) {
		zeros = zeros && !bytes[i];
		h = (h ^ bytes[i]) * 0x100000001b3ull;
	}
	return zeros ? 0 : h;
}

#endif
