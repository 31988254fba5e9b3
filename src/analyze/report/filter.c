/*
 * filter.c - what belongs to the user's system (report.h). The model marks
 * what the original analyzer leaves out (hidden); the report also leaves
 * out the topics every node has, whatever their publishers.
 */
#define _GNU_SOURCE /* qsort_r */
#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "report.h"

/* Topics of ROS 2 itself and of the tracer: every node has them. */
static bool noise_topic(const char *topic)
{
	return ca_topic_is_infrastructure(topic) || !strcmp(topic, "/clock") ||
		!strcmp(topic, "ros_discovery_info") || !strcmp(topic, "/ros_discovery_info");
}

bool report_shows_node(const struct report *r, size_t node)
{
	return node != CA_NONE && (r->options->all || !r->arch->nodes[node].hidden);
}

bool report_shows_callback(const struct report *r, size_t callback)
{
	if (callback == CA_NONE)
		return false;
	if (r->options->all)
		return true;
	const ca_callback *c = &r->arch->callbacks[callback];
	if (!ca_callback_is_users(r->arch, callback) || !report_shows_node(r, c->node))
		return false;
	/* a subscription's callback on a noise topic (ignored_callback_N) */
	return c->kind != CA_CALLBACK_SUBSCRIPTION ||
		!noise_topic(r->arch->subscriptions[c->owner].topic);
}

bool report_shows_service(const struct report *r, size_t service)
{
	return service != CA_NONE && (r->options->all || (ca_service_is_users(r->arch, service) &&
		report_shows_node(r, r->arch->services[service].node)));
}

bool report_shows_client(const struct report *r, size_t client)
{
	return client != CA_NONE && (r->options->all || (ca_client_is_users(r->arch, client) &&
		report_shows_node(r, r->arch->clients[client].node)));
}

bool report_shows_topic(const struct report *r, const char *topic)
{
	if (r->options->all)
		return true;
	if (!topic || noise_topic(topic))
		return false;
	const ca_architecture *a = r->arch;
	for (size_t i = 0; i < a->n_publishers; i++)
		if (!a->publishers[i].hidden && !strcmp(a->publishers[i].topic, topic) &&
		    report_shows_node(r, a->publishers[i].node))
			return true;
	for (size_t i = 0; i < a->n_subscriptions; i++)
		if (!a->subscriptions[i].hidden && !strcmp(a->subscriptions[i].topic, topic) &&
		    report_shows_node(r, a->subscriptions[i].node))
			return true;
	return false;
}

static int by_node_and_name(const void *x, const void *y, void *arch)
{
	const ca_architecture *sort_arch = arch;
	const ca_callback *a = &sort_arch->callbacks[*(const size_t *)x];
	const ca_callback *b = &sort_arch->callbacks[*(const size_t *)y];
	const char *na = a->node != CA_NONE ? sort_arch->nodes[a->node].fqn : "";
	const char *nb = b->node != CA_NONE ? sort_arch->nodes[b->node].fqn : "";
	int c = strcmp(na, nb);
	if (!c)
		c = strcmp(a->name ? a->name : "", b->name ? b->name : "");
	if (!c)
		c = a->pid < b->pid ? -1 : a->pid > b->pid;
	return c;
}

size_t report_callbacks_in_order(const struct report *r, size_t **out)
{
	size_t n = 0, *order = malloc((r->arch->n_callbacks + 1) * sizeof *order);
	*out = order;
	if (!order)
		return 0;
	for (size_t i = 0; i < r->arch->n_callbacks; i++)
		if (report_shows_callback(r, i))
			order[n++] = i;
	qsort_r(order, n, sizeof *order, by_node_and_name, (void *)r->arch);
	return n;
}

void report_hidden_counts(const struct report *r, struct report_hidden *hidden)
{
	const ca_topic_count *t;
	size_t n_topics = ca_trace_topic_counts(r->trace, &t);
	*hidden = (struct report_hidden){ 0 };
	for (size_t i = 0; i < r->arch->n_nodes; i++)
		hidden->nodes += !report_shows_node(r, i);
	for (size_t i = 0; i < r->arch->n_callbacks; i++)
		hidden->callbacks += !report_shows_callback(r, i);
	for (size_t i = 0; i < n_topics; i++)
		hidden->topics += !report_shows_topic(r, t[i].topic);
	for (size_t i = 0; i < r->arch->n_services; i++)
		hidden->services += !report_shows_service(r, i);
}
