/*
 * sec_services.c - the Services and Actions sections: per service, client
 * node and server node, each call's request, service, response and round
 * trip; per action (rclcpp_action, over its services), client and server,
 * each goal's round trip, its result's and the goal to its result. The
 * measures are `caret latency services|actions`' (ca_service_call_measure,
 * ca_action_goal_measure), each as a table and a card whose charts show
 * one measure at a time, at the time the client sent the call (or goal).
 * The services ROS 2 gives every node are left out unless --all.
 */
#define _GNU_SOURCE /* qsort_r */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "plural.h"
#include "report.h"
#include "series.h"

/* What the two sections share: items (calls or goals) in rows of one
 * name, client node and server node. */
struct items {
	const ca_architecture *arch;
	const ca_service_call *calls; /* every call of the trace */
	const ca_action_goal *goals;  /* NULL: the items are calls */
	size_t *order, n;             /* the items shown, sorted by row then time */
};

static const ca_service_call *call_of(const struct items *s, size_t item)
{
	return &s->calls[s->goals ? s->goals[item].send_goal : item];
}

static const char *client_node(const struct items *s, size_t item)
{
	size_t c = call_of(s, item)->client;
	size_t n = c == CA_NONE ? CA_NONE : s->arch->clients[c].node;
	return n == CA_NONE ? "?" : s->arch->nodes[n].fqn;
}

static const char *server_node(const struct items *s, size_t item)
{
	size_t v = call_of(s, item)->service;
	size_t n = v == CA_NONE ? CA_NONE : s->arch->services[v].node;
	return n == CA_NONE ? "?" : s->arch->nodes[n].fqn;
}

/* The service's (or action's) name, into buf. */
static const char *name_of(const struct items *s, size_t item, char *buf, size_t size)
{
	if (s->goals) {
		snprintf(buf, size, "%.*s", s->goals[item].action_length, s->goals[item].action);
		return buf;
	}
	const ca_service_call *c = call_of(s, item);
	snprintf(buf, size, "%s", c->client != CA_NONE ? s->arch->clients[c->client].name :
		c->service != CA_NONE ? s->arch->services[c->service].name : "?");
	return buf;
}

static int row_key(const struct items *s, size_t a, size_t b)
{
	char x[512], y[512];
	int c = strcmp(name_of(s, a, x, sizeof x), name_of(s, b, y, sizeof y));
	if (!c)
		c = strcmp(client_node(s, a), client_node(s, b));
	return c ? c : strcmp(server_node(s, a), server_node(s, b));
}

/* Whether item b goes in item a's row (s->order sorted by row_key): the
 * same row, or a call of a's service and client that no server took (one
 * in flight at the trace's end: '?' sorts after every node's name), which
 * counts among the row's incomplete calls rather than making a row of its
 * own with no data. */
static bool same_row(const struct items *s, size_t a, size_t b)
{
	if (!row_key(s, a, b))
		return true;
	char x[512], y[512];
	return !strcmp(server_node(s, b), "?") &&
		!strcmp(name_of(s, a, x, sizeof x), name_of(s, b, y, sizeof y)) &&
		!strcmp(client_node(s, a), client_node(s, b));
}

static int by_row_then_sent(const void *x, const void *y, void *ctx)
{
	const struct items *s = ctx;
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	int c = row_key(s, a, b);
	if (c)
		return c;
	uint64_t ta = call_of(s, a)->send_request, tb = call_of(s, b)->send_request;
	return (ta > tb) - (ta < tb);
}

static bool measure(const struct items *s, size_t item, int m, int64_t *value)
{
	return s->goals ? ca_action_goal_measure(s->calls, &s->goals[item], (ca_goal_measure)m,
		value) : ca_service_call_measure(&s->calls[item], (ca_call_measure)m, value);
}

/* The measures in the order the page shows them (the first by default). */
static const int call_order[] = { CA_CALL_ROUND_TRIP, CA_CALL_REQUEST, CA_CALL_SERVICE,
	CA_CALL_RESPONSE };
static const int goal_order[] = { CA_GOAL_TO_RESULT, CA_GOAL_GOAL, CA_GOAL_RESULT };

static const char *measure_label(const struct items *s, int m, char *buf, size_t size)
{
	const char *name = s->goals ? ca_goal_measure_name((ca_goal_measure)m) :
		ca_call_measure_name((ca_call_measure)m);
	size_t i = 0;
	for (; name[i] && i + 1 < size; i++)
		buf[i] = name[i] == '_' ? ' ' : name[i];
	buf[i] = 0;
	return buf;
}

/* One row: its card (charts' data) into cards, its table rows into out. */
static void one_row(struct report *r, FILE *cards, const struct items *s, size_t from,
	size_t to, struct series *series)
{
	size_t n_m = s->goals ? 3 : 4;
	const int *order = s->goals ? goal_order : call_order;
	char id[32], name[512], label[64], title[1600];
	size_t item = s->order[from];
	snprintf(title, sizeof title, "%s %s → %s", name_of(s, item, name, sizeof name),
		client_node(s, item), server_node(s, item));
	ca_stats stats[4];
	uint64_t incomplete[4] = { 0 };
	for (size_t k = 0; k < n_m; k++) {
		series_clear(&series[k]);
		for (size_t i = from; i < to; i++) {
			int64_t v;
			if (measure(s, s->order[i], order[k], &v))
				series_push(&series[k], call_of(s, s->order[i])->send_request, v);
			else
				incomplete[k]++;
		}
	}
	report_chart_id(r, id, sizeof id);
	fprintf(cards, "<div class='card' id='%s' data-chart='%s' data-name='", id, id);
	report_text(cards, title);
	fputs("'><h3>", cards);
	report_text(cards, name);
	fputs("</h3><p class='sub'>", cards);
	report_text(cards, client_node(s, item));
	fputs(" → ", cards);
	report_text(cards, server_node(s, item));
	fprintf(cards, " · %zu %s</p><div class='plots'><div class='tl'></div><div class='hist'>"
		"</div></div></div>", to - from, s->goals ? caret_plural(to - from, "goal", "goals") :
		caret_plural(to - from, "call", "calls"));
	FILE *d = report_datum(r, id);
	fputs("{\"title\":", d);
	json_string(d, title);
	fputs(",\"m\":{", d);
	for (size_t k = 0; k < n_m; k++) {
		fputs(k ? "," : "", d);
		json_string(d, measure_label(s, order[k], label, sizeof label));
		fputc(':', d);
		series_write(d, &series[k], SERIES_NS, s->goals ? "goal" : "call", r->t0, r->t1,
			&stats[k]);
	}
	fputs("}}", d);
	for (size_t k = 0; k < n_m; k++) {
		fprintf(r->out, "<tr data-name='");
		report_text(r->out, title);
		fputs("'>", r->out);
		if (!k) {
			fprintf(r->out, "<td rowspan='%zu'><a href='#%s'>", n_m, id);
			report_text(r->out, name);
			fputs("</a><br><span class='muted'>", r->out);
			report_text(r->out, client_node(s, item));
			fputs(" → ", r->out);
			report_text(r->out, server_node(s, item));
			fputs("</span></td>", r->out);
		}
		fputs("<td>", r->out);
		report_text(r->out, measure_label(s, order[k], label, sizeof label));
		fputs("</td>", r->out);
		report_stats_cells_of(r->out, &stats[k]);
		fprintf(r->out, "<td>%" PRIu64 "</td></tr>", incomplete[k]);
	}
}

/* A section of rows: its table, then its cards. */
static void rows_section(struct report *r, const struct items *s, const char *intro)
{
	const char *id = s->goals ? "actions" : "services";
	struct report_buffer cards;
	struct series series[4] = { { 0 } };
	if (!report_buffer_open(&cards))
		return;
	fprintf(r->out, "<section id='%s'><h2>%s</h2><p>%s</p><div class='metric-switch' "
		"data-section='%s'></div>", id, s->goals ? "Actions" : "Services", intro, id);
	report_stats_head(r->out, s->goals ? "action: client → server</th><th>measure" :
		"service: client → server</th><th>measure", "<th>incomplete</th>");
	for (size_t i = 0, j; i < s->n; i = j) {
		for (j = i + 1; j < s->n && same_row(s, s->order[i], s->order[j]); j++)
			;
		one_row(r, cards.f, s, i, j, series);
	}
	fputs("</tbody></table>", r->out);
	report_buffer_put(&cards, r->out);
	fputs("</section>", r->out);
	for (int k = 0; k < 4; k++)
		series_free(&series[k]);
}

static bool call_shown(const struct report *r, const ca_service_call *c)
{
	return report_shows_client(r, c->client) || report_shows_service(r, c->service) ||
		(r->options->all && c->client == CA_NONE && c->service == CA_NONE);
}

/* The items shown (of n), sorted into s->order; false when out of memory. */
static bool shown_items(const struct report *r, struct items *s, size_t n)
{
	s->n = 0;
	if (!(s->order = malloc((n + 1) * sizeof *s->order)))
		return false;
	for (size_t i = 0; i < n; i++)
		if (call_shown(r, call_of(s, i)))
			s->order[s->n++] = i;
	qsort_r(s->order, s->n, sizeof *s->order, by_row_then_sent, s);
	return true;
}

void report_services_section(struct report *r)
{
	char err[256];
	ca_service_calls *x = ca_service_calls_build(r->trace, err, sizeof err);
	const ca_service_call *calls = NULL;
	size_t n = x ? ca_service_calls_get(x, &calls) : 0;
	ca_action_goal *goals = NULL;
	size_t n_goals = n ? ca_action_goals(r->arch, calls, n, &goals) : 0;
	struct items s = { r->arch, calls, NULL, NULL, 0 }, g = { r->arch, calls, goals, NULL, 0 };
	if (!x) {
		fputs("<section id='services'><h2>Services</h2><p class='error'>", r->out);
		report_text(r->out, err);
		fputs("</p></section>", r->out);
		return;
	}
	if (n_goals == (size_t)-1 || !shown_items(r, &s, n) || !shown_items(r, &g, n_goals))
		goto out;
	if (s.n)
		rows_section(r, &s, "Each call of a service of the system from its client, as "
			"<code>caret latency services</code> measures it: request (the client's send → "
			"the service's take), service (the take → the send of the response), response "
			"(that send → the client's take), round trip (the client's send → its take of the "
			"response). A request or response below 0: the other side took it before the "
			"sender's rmw said it was written. Incomplete: calls the trace does not follow "
			"that far. At the time the client sent the call.");
	if (g.n)
		rows_section(r, &g, "Each goal of an action (rclcpp_action, over the action's "
			"services), as <code>caret latency actions</code> measures it: goal to result (the "
			"client's send_goal request → its take of the result), goal (send_goal's round "
			"trip), result (get_result's round trip). At the time the client sent the goal.");
out:
	free(s.order);
	free(g.order);
	free(goals);
	ca_service_calls_free(x);
}
