/* context.c - rcl_init's counterpart: one DDS participant per process, the
 * ground truth, and small helpers shared by the runtime. */
#define _GNU_SOURCE
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tracetools/tracetools.h"

static _Thread_local char last_error[512];

void tb_set_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof last_error, fmt, ap);
	va_end(ap);
}

const char *tb_last_error(void)
{
	return last_error;
}

int64_t tb_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

char *tb_strdup(const char *s)
{
	return strdup(s ? s : "");
}

int tb_list_push(struct tb_list *list, void *item)
{
	if (list->count == list->capacity) {
		size_t cap = list->capacity ? 2 * list->capacity : 8;
		void **items = realloc(list->items, cap * sizeof *items);
		if (!items)
			return -1;
		list->items = items;
		list->capacity = cap;
	}
	list->items[list->count++] = item;
	return 0;
}

void tb_list_free(struct tb_list *list)
{
	free(list->items);
	memset(list, 0, sizeof *list);
}

dds_entity_t tb_create_topic(tb_context *ctx, const char *prefix,
	const char *name, const char *suffix, const dds_topic_descriptor_t *desc)
{
	char dds_name[512];

	snprintf(dds_name, sizeof dds_name, "%s%s%s", prefix, name, suffix);
	dds_entity_t topic = dds_create_topic(ctx->participant, desc, dds_name,
		NULL, NULL);
	if (topic < 0)
		tb_set_error("dds_create_topic %s: %s", dds_name,
			dds_strretcode(topic));
	return topic;
}

/* A GUID-like id, unique in the process: pid, then a counter. */
void tb_make_gid(tb_context *ctx, uint8_t gid[24])
{
	unsigned n = atomic_fetch_add(&ctx->next_local_id, 1);

	memset(gid, 0, 24);
	memcpy(gid, &ctx->pid, sizeof ctx->pid);
	memcpy(gid + 8, &n, sizeof n);
}

static int domain_from_env(void)
{
	const char *env = getenv("ROS_DOMAIN_ID");
	char *end;
	long d = env && *env ? strtol(env, &end, 10) : 0;

	return env && *env && *end == '\0' && d >= 0 && d <= 232 ? (int)d : 0;
}

tb_context *tb_context_create(const struct tb_context_options *o)
{
	tb_context *ctx = calloc(1, sizeof *ctx);

	if (!ctx) {
		tb_set_error("out of memory");
		return NULL;
	}
	ctx->pid = getpid();
	ctx->intra_process = o->intra_process;
	atomic_init(&ctx->shutdown, false);
	atomic_init(&ctx->next_local_id, 1);
	pthread_mutex_init(&ctx->lock, NULL);

	int domain = o->domain_id >= 0 ? o->domain_id : domain_from_env();
	ctx->participant = dds_create_participant((dds_domainid_t)domain, NULL, NULL);
	if (ctx->participant < 0) {
		tb_set_error("dds_create_participant(domain %d): %s", domain,
			dds_strretcode(ctx->participant));
		free(ctx);
		return NULL;
	}
	if (o->truth_dir) {
		ctx->truth = tb_truth_open(o->truth_dir,
			o->process_name ? o->process_name : "process", ctx->pid);
		if (!ctx->truth) {
			tb_set_error("cannot write ground truth in %s", o->truth_dir);
			dds_delete(ctx->participant);
			free(ctx);
			return NULL;
		}
	}
	ros_trace_rcl_init(&ctx->rcl_context);
	return ctx;
}

void tb_context_shutdown(tb_context *ctx)
{
	/* Only an atomic store, so a signal handler may call it; executors
	 * notice within their longest wait (100 ms). */
	atomic_store(&ctx->shutdown, true);
}

bool tb_context_ok(const tb_context *ctx)
{
	return !atomic_load(&ctx->shutdown);
}

static void free_group(tb_callback_group *g)
{
	for (size_t i = 0; i < g->timers.count; i++)
		free(g->timers.items[i]);
	for (size_t i = 0; i < g->subscriptions.count; i++) {
		tb_subscription *s = g->subscriptions.items[i];
		tb_intra_fini(&s->intra);
		free(s->topic);
		free(s);
	}
	for (size_t i = 0; i < g->services.count; i++) {
		tb_service *s = g->services.items[i];
		free(s->name);
		free(s);
	}
	for (size_t i = 0; i < g->clients.count; i++) {
		tb_client *c = g->clients.items[i];
		free(c->service);
		free(c);
	}
	tb_list_free(&g->timers);
	tb_list_free(&g->subscriptions);
	tb_list_free(&g->services);
	tb_list_free(&g->clients);
	free(g);
}

void tb_context_destroy(tb_context *ctx)
{
	if (!ctx)
		return;
	/* Deleting the participant deletes every reader, writer, condition
	 * and waitset; then the memory they pointed into can go. */
	dds_delete(ctx->participant);
	for (size_t i = 0; i < ctx->nodes.count; i++) {
		tb_node *node = ctx->nodes.items[i];
		for (size_t j = 0; j < node->groups.count; j++)
			free_group(node->groups.items[j]);
		tb_list_free(&node->groups);
		free(node->name);
		free(node->ns);
		free(node->fqn);
		free(node);
	}
	for (size_t i = 0; i < ctx->publishers.count; i++) {
		tb_publisher *p = ctx->publishers.items[i];
		free(p->topic);
		free(p);
	}
	for (size_t i = 0; i < ctx->executors.count; i++) {
		tb_executor *e = ctx->executors.items[i];
		free(e->rclcpp.entities_collector.ptr);
		tb_list_free(&e->groups);
		pthread_mutex_destroy(&e->lock);
		pthread_cond_destroy(&e->idle);
		free(e);
	}
	tb_list_free(&ctx->nodes);
	tb_list_free(&ctx->publishers);
	tb_list_free(&ctx->subscriptions);
	tb_list_free(&ctx->executors);
	tb_truth_close(ctx->truth);
	pthread_mutex_destroy(&ctx->lock);
	free(ctx);
}
