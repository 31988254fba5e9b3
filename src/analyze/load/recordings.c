/* recordings.c - the recordings a load reads (ctf_recordings.h): several
 * are read as one system only when asked (ca_load_options.merge), so that
 * a folder of separate runs is never added up by accident, and none is
 * read twice. */
#include <stdlib.h>
#include <string.h>

#include "ctf_copies.h"
#include "ctf_native.h"
#include "ctf_recordings.h"
#include "error_build.h"
#include "tables.h"
#include "trace.h"

/* The refusal: the recordings found (the first ten) and how to choose. */
static void refuse(const ca_trace *t, const char *const *paths, size_t n_paths,
	caret_error **error)
{
	char list[2048] = "";
	size_t used = 0;
	for (size_t i = 0; i < t->n_recordings && i < 10 && used < sizeof list; i++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
			t->recordings[i]);
	if (t->n_recordings > 10 && used < sizeof list)
		snprintf(list + used, sizeof list - used, " and %zu more", t->n_recordings - 10);
	char where[1100];
	if (n_paths > 1)
		snprintf(where, sizeof where, "the %zu paths given hold", n_paths);
	else
		snprintf(where, sizeof where, "%.1000s holds", paths[0]);
	caret_error_add(error, CARET_ERR_INVALID, NULL, -1, NULL, "%s %zu separate recordings: "
		"%s; name one of them, or add --merge to analyze them as one system", where,
		t->n_recordings, list);
}

caret_status ca_load_recordings(ca_trace *t, const char *const *paths, size_t n_paths,
	bool merge, caret_error **error)
{
	for (size_t i = 0; i < n_paths; i++) {
		char **roots, err[1024];
		size_t n;
		caret_status status = ctf_find_recordings(paths[i], &roots, &n, err, sizeof err);
		if (status != CARET_OK) {
			caret_error_add(error, status, NULL, -1, NULL, "%s", err);
			return status;
		}
		for (size_t k = 0; k < n; k++) {
			bool known = false;
			for (size_t j = 0; j < t->n_recordings && !known; j++)
				known = !strcmp(t->recordings[j], roots[k]);
			char **grown = known ? t->recordings :
				realloc(t->recordings, (t->n_recordings + 1) * sizeof *grown);
			if (!grown) {
				ctf_free_dirs(roots, n);
				caret_error_add(error, CARET_ERR_NO_MEMORY, NULL, -1, NULL, "out of memory");
				return CARET_ERR_NO_MEMORY;
			}
			t->recordings = grown;
			if (!known) {
				t->recordings[t->n_recordings++] = roots[k];
				roots[k] = NULL;
			}
		}
		ctf_free_dirs(roots, n); /* what was not taken */
	}
	if (t->n_recordings > 1 && !merge) {
		refuse(t, paths, n_paths, error);
		return CARET_ERR_INVALID;
	}
	/* a recording read twice (a copy beside it, a folder given twice)
	 * would count every event twice */
	char err[9000];
	caret_status status = ctf_check_copies(paths, n_paths, err, sizeof err);
	if (status != CARET_OK)
		caret_error_add(error, status, NULL, -1, NULL, "%s", err);
	return status;
}

size_t ca_trace_recording_count(const ca_trace *t)
{
	return t ? t->n_recordings : 0;
}

const char *ca_trace_recording(const ca_trace *t, size_t i)
{
	return t && i < t->n_recordings ? t->recordings[i] : NULL;
}
