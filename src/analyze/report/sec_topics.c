/*
 * sec_topics.c - the Communication section: per topic of the user's system
 * and delivery (inter- or intra-process), the latency of each message (the
 * subscriber's callback start − its publish, at the publish), the frequency
 * and the period of the messages published, as a table and a card each.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "records.h"
#include "report.h"
#include "series.h"

/* The nodes on each side of a topic: "/a, /b → /c", into buf. */
static const char *ends(const struct report *r, const char *topic, char *buf, size_t size)
{
	const ca_architecture *a = r->arch;
	size_t used = 0;
	buf[0] = 0;
	for (int side = 0; side < 2; side++) {
		size_t n = side ? a->n_subscriptions : a->n_publishers, listed = 0;
		for (size_t i = 0; i < n && used + 2 < size; i++) {
			size_t node = side ? a->subscriptions[i].node : a->publishers[i].node;
			const char *t = side ? a->subscriptions[i].topic : a->publishers[i].topic;
			if (strcmp(t, topic) || !report_shows_node(r, node))
				continue;
			used += (size_t)snprintf(buf + used, size - used, "%s%s", listed++ ? ", " : "",
				a->nodes[node].fqn);
		}
		if (!side && used + 4 < size)
			used += (size_t)snprintf(buf + used, size - used, " → ");
	}
	return buf;
}

struct topic_series {
	struct series latency, publishes, frequency, period;
};

static void one_delivery(struct report *r, FILE *cards, const char *topic, bool intra,
	uint64_t *published, int64_t *values, struct topic_series *s)
{
	size_t m = ca_records_topic_timed(r->messages, topic, intra, published, values, NULL);
	if (!m)
		return;
	series_clear(&s->latency);
	series_clear(&s->publishes);
	series_clear(&s->frequency);
	series_clear(&s->period);
	for (size_t i = 0; i < m; i++) { /* in publish order */
		series_push(&s->latency, published[i], values[i]);
		if (!i || published[i] != published[i - 1]) /* a publish each subscriber took */
			series_push(&s->publishes, published[i], 0);
	}
	series_period(&s->publishes, &s->period);
	series_frequency(&s->publishes, r->t0, r->t1, &s->frequency);

	char id[32], name[600], sides[1024];
	FILE *out = r->out;
	report_chart_id(r, id, sizeof id);
	snprintf(name, sizeof name, "%s (%s)", topic, intra ? "intra-process" : "inter-process");
	ca_stats latency;
	/* the card and its data first: the row takes their statistics */
	fprintf(cards, "<div class='card' id='%s' data-chart='%s' data-name='", id, id);
	report_text(cards, name);
	fputs("'><h3>", cards);
	report_text(cards, name);
	fputs("</h3><p class='sub'>", cards);
	report_text(cards, ends(r, topic, sides, sizeof sides));
	fputs("</p><div class='plots'><div class='tl'></div><div class='hist'></div></div></div>",
		cards);
	FILE *d = report_datum(r, id);
	fputs("{\"title\":", d);
	json_string(d, name);
	fputs(",\"m\":{\"latency\":", d);
	series_write(d, &s->latency, SERIES_NS, "message", r->t0, r->t1, &latency);
	fputs(",\"frequency\":", d);
	series_write(d, &s->frequency, SERIES_PER_SECOND, "second", r->t0, r->t1, NULL);
	fputs(",\"period\":", d);
	series_write(d, &s->period, SERIES_NS, "message", r->t0, r->t1, NULL);
	fputs("}}", d);

	fputs("<tr data-name='", out);
	report_text(out, name);
	fprintf(out, "'><td><a href='#%s'>", id);
	report_text(out, name);
	fputs("</a></td>", out);
	report_stats_cells_of(out, &latency);
	size_t n_pub = s->publishes.n;
	double hz = n_pub > 1 && s->publishes.t[n_pub - 1] > s->publishes.t[0] ?
		(double)(n_pub - 1) * 1e9 / (double)(s->publishes.t[n_pub - 1] - s->publishes.t[0]) : 0;
	fprintf(out, "<td>%" PRIu64 "</td><td>%.2f</td><td class='kind'>",
		ca_records_topic_not_received(r->messages, topic, intra), hz);
	report_text(out, sides);
	fputs("</td></tr>", out);
}

void report_topics_section(struct report *r)
{
	const ca_topic_count *topics;
	size_t n_topics = ca_trace_topic_counts(r->trace, &topics), most = 0;
	for (size_t k = 0; k < n_topics; k++)
		for (int intra = 0; intra < 2; intra++) {
			size_t n = report_shows_topic(r, topics[k].topic) ?
				ca_records_topic_timed_count(r->messages, topics[k].topic, intra) : 0;
			most = n > most ? n : most;
		}
	uint64_t *published = malloc((most + 1) * sizeof *published);
	int64_t *values = malloc((most + 1) * sizeof *values);
	struct topic_series s = { 0 };
	struct report_buffer cards;
	FILE *out = r->out;
	if (!published || !values || !report_buffer_open(&cards))
		goto out;
	fputs("<section id='topics'><h2>Communication</h2><p>Per topic and delivery. Latency: "
		"the subscriber's callback_start − rclcpp_publish of each message, at its publish; "
		"frequency: messages published in each second; period: the time since the message "
		"before. Not received: published while a subscriber recorded, never handled by "
		"it.</p><div class='metric-switch' data-section='topics'></div>", out);
	report_stats_head(out, "topic", "<th>not received</th><th>mean Hz</th>"
		"<th class='kind'>from → to</th>");
	size_t shown = 0;
	for (size_t k = 0; k < n_topics; k++) {
		if (!report_shows_topic(r, topics[k].topic))
			continue;
		for (int intra = 0; intra < 2; intra++) {
			size_t before = r->charts;
			one_delivery(r, cards.f, topics[k].topic, intra, published, values, &s);
			shown += r->charts != before;
		}
	}
	fputs("</tbody></table>", out);
	if (!shown)
		fputs("<p>No message of the system was both published and handled in the "
			"trace.</p>", out);
	report_buffer_put(&cards, out);
	fputs("</section>", out);
out:
	series_free(&s.latency);
	series_free(&s.publishes);
	series_free(&s.frequency);
	series_free(&s.period);
	free(published);
	free(values);
}
