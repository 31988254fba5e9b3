/*
 * ctf_tally.c - skimmed events counted by their stream event context
 * (ctf_tally.h), found by a hash when not in the last group (which
 * ctf_tally_find tries inline).
 */
#include "ctf_tally.h"

#include <stdlib.h>
#include <string.h>

#include "vec.h"

static uint64_t hash_of(const struct ctf_stream_class *sc, const uint8_t *b, size_t n)
{
	uint64_t h = (uint64_t)(uintptr_t)sc * 0x9E3779B97F4A7C15u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001B3u;
	return h ^ (h >> 29);
}

static bool same(const struct ctf_tally_group *g, const struct ctf_stream_class *sc,
	const uint8_t *b, size_t n)
{
	return g->sc == sc && g->n_bytes == n && ctf_tally_same(g->bytes, b, n);
}

static bool grow_index(struct ctf_tally_map *m)
{
	size_t size = m->index_size ? 2 * m->index_size : 64;
	uint32_t *index = calloc(size, sizeof *index);
	if (!index)
		return false;
	for (size_t i = 0; i < m->n; i++) {
		const struct ctf_tally_group *g = &m->groups[i];
		size_t k = hash_of(g->sc, g->bytes, g->n_bytes) & (size - 1);
		while (index[k])
			k = (k + 1) & (size - 1);
		index[k] = (uint32_t)i + 1;
	}
	free(m->index);
	m->index = index;
	m->index_size = size;
	return true;
}

static struct ctf_tally_group *add_group(struct ctf_tally_map *m,
	const struct ctf_stream_class *sc, const uint8_t *b, size_t n)
{
	if (!VEC_ROOM(m->groups, m->n, m->cap))
		return NULL;
	struct ctf_tally_group *g = &m->groups[m->n];
	g->sc = sc;
	g->n_bytes = (uint32_t)n;
	memcpy(g->bytes, b, n);
	if (!(g->by_class = calloc(sc->n_events ? sc->n_events : 1, sizeof *g->by_class)))
		return NULL;
	m->n++;
	return g;
}

struct ctf_tally_count *ctf_tally_search(struct ctf_tally_map *m,
	const struct ctf_stream_class *sc, const uint8_t *bytes, size_t n, uint64_t class_id)
{
	if (n > CTF_TALLY_BYTES || class_id >= sc->n_events)
		return NULL;
	if ((m->n + 1) * 2 > m->index_size && !grow_index(m))
		return NULL;
	size_t k = hash_of(sc, bytes, n) & (m->index_size - 1);
	for (; m->index[k]; k = (k + 1) & (m->index_size - 1))
		if (same(&m->groups[m->index[k] - 1], sc, bytes, n)) {
			m->last = m->index[k] - 1;
			return &m->groups[m->last].by_class[class_id];
		}
	struct ctf_tally_group *g = add_group(m, sc, bytes, n);
	if (!g)
		return NULL;
	m->index[k] = (uint32_t)m->n;
	m->last = m->n - 1;
	return &g->by_class[class_id];
}

void ctf_tally_free(struct ctf_tally_map *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->groups[i].by_class);
	free(m->groups);
	free(m->index);
	*m = (struct ctf_tally_map){ 0 };
}
