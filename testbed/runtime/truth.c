/* truth.c - see truth.h. Writers take a lock per file: the testbed measures
 * the truth, it is not on anyone's hot path. Self-contained: the real
 * rclcpp apps of tests/real write their truth with it too. */
#define _GNU_SOURCE
#include "truth.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"

enum { T_ENTITIES, T_CALLBACKS, T_PUBLISHES, T_RECEIVES, T_E2E, T_COUNT };

static const char *const file_kind[T_COUNT] = {
	"entities", "callbacks", "publishes", "receives", "e2e",
};
static const char *const header[T_COUNT] = {
	"pid,kind,node,name,handle,callback,group,symbol,period_ns,time_ns",
	"pid,node,callback_name,callback,kind,tid,start_ns,end_ns",
	"pid,node,topic,publisher,seq,stamp_ns,origin_ns,time_ns,intra_subscriptions,inter_process",
	"pid,node,callback_name,topic,publisher,seq,stamp_ns,origin_ns,source_timestamp,time_ns,delivery",
	"pid,node,callback_name,topic,publisher,seq,origin_ns,end_ns,latency_ns",
};

struct tb_truth {
	int pid;
	pthread_mutex_t lock;
	FILE *files[T_COUNT];
};

struct tb_truth *tb_truth_open(const char *dir, const char *process, int pid)
{
	struct tb_truth *t = calloc(1, sizeof *t);
	char path[4096];

	if (!t)
		return NULL;
	t->pid = pid;
	pthread_mutex_init(&t->lock, NULL);
	if (mkdir(dir, 0755) != 0 && errno != EEXIST)
		goto fail;
	for (int i = 0; i < T_COUNT; i++) {
		snprintf(path, sizeof path, "%s/%s.%s.%d.csv", dir, process,
			file_kind[i], pid);
		t->files[i] = fopen(path, "w");
		if (!t->files[i])
			goto fail;
		fprintf(t->files[i], "%s\n", header[i]);
	}
	return t;
fail:
	tb_truth_close(t);
	return NULL;
}

void tb_truth_close(struct tb_truth *t)
{
	if (!t)
		return;
	for (int i = 0; i < T_COUNT; i++)
		if (t->files[i])
			fclose(t->files[i]);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

#define WRITE(t, kind, fmt, ...)                                            \
	do {                                                                \
		if (!(t))                                                   \
			break;                                              \
		pthread_mutex_lock(&(t)->lock);                             \
		fprintf((t)->files[kind], "%d," fmt "\n", (t)->pid, __VA_ARGS__); \
		pthread_mutex_unlock(&(t)->lock);                           \
	} while (0)

/* An address as the truth writes it: 0x..., (nil), or ? when unknown. */
static const char *address(char *buf, size_t size, const void *p)
{
	if (p == TB_TRUTH_UNKNOWN)
		return "?";
	snprintf(buf, size, "%p", p);
	return buf;
}

void tb_truth_entity_at(struct tb_truth *t, int64_t time, const char *kind,
	const char *node, const char *name, const void *handle, const void *callback,
	const void *group, const char *symbol, int64_t period_ns)
{
	char h[24], c[24], g[24];
	WRITE(t, T_ENTITIES, "%s,%s,%s,%s,%s,%s,%s,%" PRId64 ",%" PRId64, kind,
		node, name, address(h, sizeof h, handle), address(c, sizeof c, callback),
		address(g, sizeof g, group), symbol ? symbol : "", period_ns, time);
}

void tb_truth_entity(struct tb_truth *t, const char *kind, const char *node,
	const char *name, const void *handle, const void *callback,
	const void *group, const char *symbol, int64_t period_ns)
{
	tb_truth_entity_at(t, caret_monotonic_ns(), kind, node, name, handle, callback, group, symbol,
		period_ns);
}

void tb_truth_callback(struct tb_truth *t, const char *node,
	const char *callback_name, const void *callback, const char *kind,
	int64_t start, int64_t end)
{
	WRITE(t, T_CALLBACKS, "%s,%s,%p,%s,%ld,%" PRId64 ",%" PRId64, node,
		callback_name, callback, kind, (long)syscall(SYS_gettid), start,
		end);
}

void tb_truth_publish(struct tb_truth *t, const char *node, const char *topic,
	uint64_t publisher, uint64_t seq, int64_t stamp, int64_t origin,
	int64_t time, unsigned intra_subscriptions, bool inter_process)
{
	WRITE(t, T_PUBLISHES, "%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%" PRId64
		",%" PRId64 ",%u,%d", node, topic, publisher, seq, stamp, origin,
		time, intra_subscriptions, inter_process);
}

void tb_truth_receive(struct tb_truth *t, const char *node,
	const char *callback_name, const char *topic, uint64_t publisher,
	uint64_t seq, int64_t stamp, int64_t origin, int64_t source_timestamp,
	int64_t time, bool intra)
{
	WRITE(t, T_RECEIVES, "%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%" PRId64
		",%" PRId64 ",%" PRId64 ",%s", node, callback_name, topic, publisher,
		seq, stamp, origin, source_timestamp, time, intra ? "intra" : "inter");
}

void tb_truth_e2e(struct tb_truth *t, const char *node,
	const char *callback_name, const char *topic, uint64_t publisher,
	uint64_t seq, int64_t origin, int64_t end)
{
	WRITE(t, T_E2E, "%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRId64 ",%" PRId64
		",%" PRId64, node, callback_name, topic, publisher, seq, origin, end,
		end - origin);
}
