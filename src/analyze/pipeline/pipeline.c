/*
 * pipeline.c - the one place where the analyzer's stages meet: read
 * (load/) -> model (model/) -> records (records/) -> paths (path/). Each
 * stage knows only those before it; this file hands each the next one's
 * work: the records a load was asked for scan the model's runtime pass
 * (the trace's tee), and records that follow a path get the path
 * stage's planner.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ca.h"
#include "error_build.h"

#include "model.h"
#include "path.h"
#include "records.h"
#include "tables.h"
#include "trace.h"

/* Records asked for in advance ride the model's runtime pass instead of
 * a pass of their own: set up before the model is built. */
static size_t board_riders(ca_trace *t, const ca_load_options *o, struct ca_records **riding)
{
	size_t asked = !o->records ? 0 : o->n_records ? o->n_records : 1, n = 0;
	for (size_t i = 0; t->runtime_not_kept && i < asked && i < CA_MAX_RIDING; i++)
		if ((riding[n] = ca_records_ride(t, &o->records[i], &ca_path_planner)))
			n++; /* out of memory: built in a pass of their own, if at all */
	return n;
}

/* The model, with the riders' scan teed off its runtime pass. */
static caret_status build_model(ca_trace *t, const ca_load_options *o, const char *path,
	caret_error **error)
{
	struct ca_records *riding[CA_MAX_RIDING] = { 0 };
	struct ca_riders riders = { riding, o ? board_riders(t, o, riding) : 0 };
	bool joins = false;
	for (size_t i = 0; i < riders.n; i++)
		joins = joins || !riding[i]->runs_only;
	if (riders.n) {
		t->tee = riders.n == 1 ? ca_records_scan_visit : ca_records_scan_visit_all;
		t->tee_ctx = riders.n == 1 ? (void *)riding[0] : (void *)&riders;
		t->tee_joins = joins;
		t->tee_object = joins ? ca_records_event_object : NULL;
		t->records_only = o->records_only;
	}
	int status = ca_model_build(t);
	t->tee = NULL;
	t->tee_joins = false;
	t->tee_object = NULL;
	for (size_t i = 0; i < riders.n; i++)
		if (!status && ca_records_scan_end(riding[i]) == 0)
			t->prebuilt[t->n_prebuilt++] = riding[i];
		else
			ca_records_free(riding[i]);
	if (status != 0 && t->replay_error[0]) /* damage the first pass stepped over */
		caret_error_add(error, CARET_ERR_FORMAT, NULL, -1, NULL, "%s", t->replay_error);
	else if (status != 0)
		caret_error_add(error, CARET_ERR_NO_MEMORY, NULL, -1, NULL,
			"out of memory while loading %s", path);
	return caret_error_status(*error);
}

caret_status ca_trace_open(const char *const *paths, size_t n_paths, const ca_load_options *o,
	ca_trace **trace, caret_error **error)
{
	*error = NULL;
	*trace = ca_load_read(paths, n_paths, o, error);
	if (*trace && build_model(*trace, o, paths[0], error) != CARET_OK) {
		ca_trace_free(*trace);
		*trace = NULL;
	}
	return caret_error_status(*error);
}

ca_trace *ca_trace_load_options(const char *const *paths, size_t n_paths,
	const ca_load_options *o, char *err, size_t err_size)
{
	ca_trace *t;
	caret_error *e;
	if (ca_trace_open(paths, n_paths, o, &t, &e) != CARET_OK)
		snprintf(err, err_size, "%s", caret_error_message(e));
	caret_error_free(e);
	return t;
}

ca_trace *ca_trace_load_with(const char *const *paths, size_t n_paths, ca_reader reader,
	char *err, size_t err_size)
{
	ca_load_options o = ca_load_defaults();
	o.reader = reader;
	return ca_trace_load_options(paths, n_paths, &o, err, err_size);
}

ca_trace *ca_trace_load(const char *const *paths, size_t n_paths, char *err, size_t err_size)
{
	return ca_trace_load_with(paths, n_paths, CA_READER_NATIVE, err, err_size);
}

int ca_trace_finish(ca_trace *t, char *err, size_t err_size)
{
	caret_error *e = NULL;
	if (ca_load_finish_built(t, err, err_size) != 0)
		return -1;
	caret_status status = build_model(t, NULL, "(built)", &e);
	if (status != CARET_OK)
		snprintf(err, err_size, "%s", caret_error_message(e));
	caret_error_free(e);
	return status == CARET_OK ? 0 : -1;
}

void ca_trace_free(ca_trace *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n_prebuilt; i++)
		ca_records_free(t->prebuilt[i]); /* asked for, never taken */
	ca_model_free(t->model);
	ca_load_free(t);
}

ca_records *ca_records_build_options(const ca_trace *t, const ca_records_options *o,
	char *err, size_t err_size)
{
	return ca_records_build_with(t, o, &ca_path_planner, err, err_size);
}
