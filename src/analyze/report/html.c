/*
 * html.c - the HTML report (ca_report_write): the page's frame (head,
 * header, contents, the bar that searches and moves the time view), its
 * sections in order (report.h), written in parts by three threads (the
 * callbacks' and topics' cards, the scheduling view, the rest), then its
 * data and script. Everything
 * inline, so the page opens offline; docs/dev/report.md says why the
 * charts are drawn by uPlot in the page.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "assets.h"
#include "json.h"
#include "model.h"
#include "report.h"
#include "trace.h"
#include "plural.h"

/* The distinct values of a process field, ", "-joined ("not recorded"). */
static void distinct(FILE *out, const ca_architecture *a, bool rmw)
{
	char *values = report_process_values(a, rmw);
	if (values)
		report_text(out, values);
	else
		fputs("<span class='muted'>not recorded (no caret_init)</span>", out);
	free(values);
}

/* Each process by its program and the user's nodes in it, a line each,
 * with its host when the trace has several. */
static void processes(FILE *out, const ca_architecture *a)
{
	bool hosts = false;
	for (size_t i = 1; i < a->n_processes && !hosts; i++)
		hosts = a->processes[i].host && a->processes[0].host &&
			strcmp(a->processes[i].host, a->processes[0].host);
	for (size_t i = 0; i < a->n_processes; i++) {
		char label[1024];
		ca_process_label(a, i, label, sizeof label);
		fputs("<br>", out);
		if (hosts) {
			fputs("<span class='muted'>", out);
			report_text(out, a->processes[i].host ? a->processes[i].host : "?");
			fputs(":</span> ", out);
		}
		report_text(out, label);
	}
}

/* A snapshot of caret live: the misses it was written for, in the
 * header's table (their instances are marked on their path's timeline). */
static void snapshot_misses(const struct report *r)
{
	FILE *out = r->out;
	for (size_t i = 0; i < r->n_misses; i++) {
		const struct report_miss *m = &r->misses[i];
		fputs("<tr class='snapshot-miss'><th>deadline miss</th><td>this trace is the snapshot "
			"caret live wrote for the instance of <b>", out);
		report_text(out, m->path);
		fprintf(out, "</b> from %.6f s to %.6f s (start_ns %" PRIu64 ", end_ns %" PRIu64 "): "
			"it took <b>%.3f ms</b>, over its deadline of %.3f ms; marked on the path's timeline</td>"
			"</tr>", m->start >= r->t0 ? (double)(m->start - r->t0) / 1e9 : 0.0,
			m->end >= r->t0 ? (double)(m->end - r->t0) / 1e9 : 0.0, m->start, m->end,
			m->latency / 1e6, m->deadline / 1e6);
	}
}

void report_header(struct report *r)
{
	FILE *out = r->out;
	const ca_report_options *o = r->options;
	const ca_architecture *a = r->arch;
	fputs("<header><h1>caret report", out);
	if (o->n_trace_paths) {
		fputs(" <span class='muted'>", out);
		const char *base = strrchr(o->trace_paths[0], '/');
		report_text(out, base && base[1] ? base + 1 : o->trace_paths[0]);
		fputs("</span>", out);
	}
	fputs("</h1><table class='facts'><tr><th>trace</th><td>", out);
	for (size_t i = 0; i < o->n_trace_paths; i++) {
		fputs(i ? "<br>" : "", out);
		report_text(out, o->trace_paths[i]);
	}
	fputs("</td></tr><tr><th>recorded</th><td>", out);
	if (r->trace->epoch_offset) {
		time_t at = (time_t)(((int64_t)r->t0 + r->trace->epoch_offset) / 1000000000);
		struct tm tm;
		char when[64];
		gmtime_r(&at, &tm);
		strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
		fputs(when, out);
	} else {
		fputs("<span class='muted'>unknown (no clock offset in the trace)</span>", out);
	}
	fprintf(out, "</td></tr><tr><th>duration</th><td>%.3f s</td></tr><tr><th>ROS 2</th><td>",
		(double)(r->t1 - r->t0) / 1e9);
	distinct(out, a, false);
	fputs("</td></tr><tr><th>rmw</th><td>", out);
	distinct(out, a, true);
	struct report_hidden hidden;
	report_hidden_counts(r, &hidden);
	size_t nodes = a->n_nodes - hidden.nodes, callbacks = a->n_callbacks - hidden.callbacks;
	size_t services = a->n_services - hidden.services;
	fprintf(out, "</td></tr><tr><th>processes</th><td>%zu", a->n_processes);
	processes(out, a);
	fprintf(out, "</td></tr><tr><th>events</th><td>%" PRIu64 "%s%" PRIu64 " discarded%s"
		"</td></tr><tr><th>shown</th><td>%zu %s, %zu %s, %zu %s", ca_trace_event_count(r->trace),
		ca_trace_discarded(r->trace) ? " <b class='error'>(" : " (",
		ca_trace_discarded(r->trace), ca_trace_discarded(r->trace) ? ")</b>" : ")",
		nodes, caret_plural(nodes, "node", "nodes"), callbacks,
		caret_plural(callbacks, "callback", "callbacks"), services,
		caret_plural(services, "service", "services"));
	if (hidden.nodes + hidden.callbacks + hidden.topics + hidden.services && !o->all)
		fprintf(out, " <span class='muted'>(left out: %zu %s, %zu %s, %zu %s and %zu %s of "
			"the tracer and of ROS 2 itself; caret report --all shows them)</span>",
			hidden.nodes, caret_plural(hidden.nodes, "node", "nodes"), hidden.callbacks,
			caret_plural(hidden.callbacks, "callback", "callbacks"), hidden.services,
			caret_plural(hidden.services, "service", "services"), hidden.topics,
			caret_plural(hidden.topics, "topic", "topics"));
	fputs("</td></tr>", out);
	snapshot_misses(r);
	fputs("</table></header>", out);
}

/* The bar at the top: contents, search, the time view. */
static void bar(FILE *out)
{
	fputs("<nav id='bar'><span class='toc'><a href='#check'>Check</a><a href='#graph'>Graph"
		"</a><a href='#paths'>Paths</a><a href='#sched'>Scheduling</a><a href='#callbacks'>"
		"Callbacks</a><a href='#topics'>Communication</a><a href='#services'>Services</a><a "
		"href='#actions'>Actions</a><a href='#tf'>tf</a></span><input id='search' "
		"type='search' placeholder='search callbacks, topics, services, paths' "
		"aria-label='search'><span id='view'><button id='zoom-out' title='zoom out'>−"
		"</button><button id='zoom-in' title='zoom in'>+</button><button id='pan-left' "
		"title='earlier'>◀</button><button id='pan-right' title='later'>▶</button><button "
		"id='zoom-reset' title='the whole trace'>all</button><span id='view-range'></span>"
		"</span></nav><p class='hint'>Timelines share one time axis, in seconds since the "
		"trace began: drag across one to zoom in, ctrl+wheel to zoom, shift+wheel to pan, "
		"double-click for the whole trace. Hover a point for its value.</p>", out);
}

/* A part of the page, written into buffers of its own. */
struct part {
	struct report r;
	struct report_buffer html, data;
};

static bool part_open(struct part *p, const struct report *base, const char *prefix)
{
	p->r = *base;
	p->r.id_prefix = prefix;
	p->r.charts = p->r.data_members = 0;
	if (!report_buffer_open(&p->html))
		return false;
	if (!report_buffer_open(&p->data)) {
		report_buffer_put(&p->html, NULL);
		return false;
	}
	p->r.out = p->html.f;
	p->r.data = p->data.f;
	return true;
}

static void part_drop(struct part *p)
{
	report_buffer_put(&p->html, NULL);
	report_buffer_put(&p->data, NULL);
}

/* The callbacks' and the topics' sections: most of a large trace's series,
 * written while the other thread writes the paths and the scheduling. */
static void *lists(void *arg)
{
	struct part *p = arg;
	report_callbacks_section(&p->r);
	report_topics_section(&p->r);
	report_services_section(&p->r);
	return NULL;
}

/* The scheduling view, with the runs of the paths' messages. */
struct scheduling {
	struct part part;
	const struct report_paths *paths;
};

static void *scheduling(void *arg)
{
	struct scheduling *s = arg;
	const ca_path_latency *const *l;
	const ca_path *const *defs;
	size_t n = report_paths_view(s->paths, &l, &defs);
	report_sched_section(&s->part.r, l, defs, n);
	return NULL;
}

/* ---- ca_report ------------------------------------------------------------ */

/* The records a report reads (ca_report_records): the callbacks' runs and
 * the messages' latencies with their times, then one path followed each. */
enum { WANT_RUNS_AND_MESSAGES, WANT_PATHS, MAX_FOLLOWED = CA_MAX_RIDING - WANT_PATHS };

struct ca_report {
	ca_report_options o; /* the caller's, its arrays too */
	ca_path_set **sets;  /* the named paths, one set each */
	const ca_path **paths;
	ca_records_options wanted[CA_MAX_RIDING];
	size_t n_wanted;
	ca_requirement *requirements; /* of the architecture file */
	size_t n_requirements;
	struct report_miss *misses;   /* of a snapshot of caret live */
	size_t n_misses;
};

void ca_report_free(ca_report *rep)
{
	if (!rep)
		return;
	for (size_t i = 0; rep->sets && i < rep->o.n_paths; i++)
		ca_path_set_free(rep->sets[i]);
	free(rep->sets);
	free(rep->paths);
	ca_requirements_free(rep->requirements, rep->n_requirements);
	free(rep->misses);
	free(rep);
}

ca_report *ca_report_new(const ca_report_options *o, char *err, size_t err_size)
{
	ca_report *rep = calloc(1, sizeof *rep);
	size_t n = o && o->arch_file ? o->n_paths : 0;
	if (!rep || !(rep->sets = calloc(n + 1, sizeof *rep->sets)) ||
	    !(rep->paths = calloc(n + 1, sizeof *rep->paths))) {
		snprintf(err, err_size, "out of memory");
		ca_report_free(rep);
		return NULL;
	}
	if (o)
		rep->o = *o;
	rep->o.n_paths = n;
	for (size_t i = 0; i < n; i++)
		if (!(rep->sets[i] = ca_arch_file_path(o->arch_file, o->path_names[i], err,
			err_size)) || !ca_path_set_paths(rep->sets[i], &rep->paths[i])) {
			ca_report_free(rep);
			return NULL;
		}
	/* the file's requirements, drawn on their charts */
	if (o && o->arch_file && ca_arch_file_requirements(o->arch_file, &rep->requirements,
		&rep->n_requirements, err, err_size) != 0) {
		ca_report_free(rep);
		return NULL;
	}
	if (o)
		rep->n_misses = report_read_misses(o->trace_paths, o->n_trace_paths, &rep->misses);
	rep->wanted[WANT_RUNS_AND_MESSAGES] = (ca_records_options){ .latencies_only = true,
		.latency_times = true, .with_runs = true };
	rep->n_wanted = WANT_PATHS;
	for (size_t i = 0; i < n && i < MAX_FOLLOWED; i++)
		rep->wanted[rep->n_wanted++] = (ca_records_options){ .follow = rep->paths[i],
			.follow_policy = CA_POLICY_USE_LATEST_MESSAGE };
	if (!n) /* the chain ca_path_longest finds, chosen with the architecture */
		rep->wanted[rep->n_wanted++] = (ca_records_options){ .follow_longest = true,
			.follow_policy = CA_POLICY_USE_LATEST_MESSAGE };
	return rep;
}

size_t ca_report_records(const ca_report *rep, const ca_records_options **records)
{
	*records = rep->wanted;
	return rep->n_wanted;
}

static bool has_tf(const ca_trace *t)
{
	return ca_trace_rows_of(t, CS_EV_ros2_caret_send_transform) ||
		ca_trace_rows_of(t, CS_EV_ros2_caret_send_static_transform) ||
		ca_trace_rows_of(t, CS_EV_ros2_caret_tf_set_transform) ||
		ca_trace_rows_of(t, CS_EV_ros2_caret_tf_set_static_transform) ||
		ca_trace_rows_of(t, CS_EV_ros2_caret_tf_lookup_transform);
}

/* Whether the tracer recorded when messages reached their subscribers'
 * middleware: only then are records joined to split the paths' hops. */
static bool has_receptions(const ca_trace *t)
{
	return ca_trace_rows_of(t, CS_EV_ros2_caret_rmw_take_reception) ||
		ca_trace_rows_of(t, CS_EV_ros2_caret_rmw_data_available);
}

/* The page of a trace whose records are built: the parts written (two of
 * them at once), then put together. */
static int write_page(struct report *r, const ca_report *rep, const ca_records *const *followed)
{
	FILE *out = r->out;
	struct part main_part, list_part, tf_part;
	struct scheduling sched = { 0 };
	struct part *parts[4] = { &main_part, &sched.part, &list_part, &tf_part };
	static const char *const prefixes[4] = { "p", "s", "c", "t" };
	bool opened = true;
	for (int i = 0; i < 4; i++)
		if (!part_open(parts[i], r, prefixes[i])) {
			for (int k = 0; k < i; k++)
				part_drop(parts[k]);
			opened = false;
			break;
		}
	if (!opened) {
		snprintf(r->err, r->err_size, "out of memory");
		return -1;
	}
	/* the paths' latencies first: handed over by the records that followed
	 * them, unless a path needs a pass of its own */
	static const char *const longest_title[] = { "the longest chain found (no path named)" };
	ca_path_set *longest = rep->o.n_paths ? NULL :
		ca_path_longest(r->trace, r->every ? r->every : r->runs, rep->o.all);
	const ca_path *longest_path = NULL;
	size_t n_paths = rep->o.n_paths ? rep->o.n_paths :
		ca_path_set_paths(longest, &longest_path) ? 1 : 0;
	struct report_paths *paths = report_paths_build(&main_part.r,
		rep->o.n_paths ? rep->o.path_names : longest_title,
		rep->o.n_paths ? rep->paths : &longest_path, followed, n_paths);
	if (!paths) {
		for (int i = 0; i < 4; i++)
			part_drop(parts[i]);
		ca_path_set_free(longest);
		return -1;
	}
	/* three parts at once: the lists, the scheduling, the paths */
	sched.paths = paths;
	pthread_t threads[2];
	bool started[2] = { pthread_create(&threads[0], NULL, lists, &list_part) == 0,
		pthread_create(&threads[1], NULL, scheduling, &sched) == 0 };
	report_check_section(&main_part.r);
	report_graph_section(&main_part.r);
	report_paths_section(&main_part.r, paths);
	if (started[0])
		pthread_join(threads[0], NULL);
	else
		lists(&list_part);
	if (started[1])
		pthread_join(threads[1], NULL);
	else
		scheduling(&sched);
	report_tf_section(&tf_part.r);
	/* a named path not followed is the user's error, not only the page's */
	bool path_failed = rep->o.n_paths && report_paths_failed(paths, r->err, r->err_size);
	report_paths_free(paths);
	ca_path_set_free(longest);

	fprintf(out, "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><meta "
		"name='viewport' content='width=device-width'><title>caret report</title><style>%s"
		"</style><style>%s</style></head><body>", ca_asset_uplot_css, ca_asset_report_css);
	report_header(r);
	bar(out);
	for (int i = 0; i < 4; i++)
		report_buffer_put(&parts[i]->html, out);
	fputs("<footer class='muted'>Definitions of every number: docs/latency.md of caret-c. "
		"Times are the trace's clock.</footer>", out);
	/* the data, then the chart library and the page's script */
	fputs("<script type='application/json' id='caret-data'>{\"dur\":", out);
	json_int(out, (int64_t)((r->t1 - r->t0) / 1000));
	fputs(",\"charts\":{", out);
	bool comma = false;
	for (int i = 0; i < 4; i++) {
		if (comma && parts[i]->r.data_members)
			fputc(',', out);
		comma = comma || parts[i]->r.data_members;
		report_buffer_put(&parts[i]->data, out);
	}
	fprintf(out, "}}</script><script>%s</script><script>%s</script></body></html>\n",
		ca_asset_uplot_js, ca_asset_report_js);
	if (ferror(out)) {
		snprintf(r->err, r->err_size, "cannot write the report");
		return -1;
	}
	return path_failed;
}

int ca_report_write(ca_report *rep, const ca_trace *trace, FILE *out, char *err,
	size_t err_size)
{
	struct report r = { .out = out, .trace = trace, .arch = ca_trace_architecture(trace),
		.options = &rep->o, .err = err, .err_size = err_size,
		.requirements = rep->requirements, .n_requirements = rep->n_requirements,
		.misses = rep->misses, .n_misses = rep->n_misses };
	ca_records *built[CA_MAX_RIDING] = { 0 }, *every = NULL, *joined = NULL;
	ca_hop_splitter *splitter = NULL;
	const ca_records **followed = calloc(rep->o.n_paths + 1, sizeof *followed);
	int status = -1;
	ca_model_time_span(trace, &r.t0, &r.t1);
	if (!followed) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	/* each taken from the load's pass when it rode along, else in its own */
	for (size_t i = 0; i < rep->n_wanted; i++)
		if (!(built[i] = ca_records_build_options(trace, &rep->wanted[i], err, err_size)))
			goto out;
	if (has_tf(trace) && !(every = ca_records_build(trace, err, err_size)))
		goto out; /* tf: placed in the callback runs of every record */
	/* the split of the paths' topic hops, from every record (tf's, when built) */
	if (has_receptions(trace) && !every && !(joined = ca_records_build(trace, err, err_size)))
		goto out;
	if (has_receptions(trace) && (splitter = ca_hop_splitter_new(every ? every : joined)))
		r.receptions = ca_records_reception_kinds(every ? every : joined);
	r.splitter = splitter;
	r.runs = r.messages = built[WANT_RUNS_AND_MESSAGES];
	r.every = every;
	for (size_t i = WANT_PATHS; i < rep->n_wanted; i++)
		followed[i - WANT_PATHS] = built[i];
	status = write_page(&r, rep, followed);
out:
	for (size_t i = 0; i < rep->n_wanted; i++)
		ca_records_free(built[i]);
	ca_records_free(every);
	ca_hop_splitter_free(splitter);
	ca_records_free(joined);
	free(followed);
	return status;
}
