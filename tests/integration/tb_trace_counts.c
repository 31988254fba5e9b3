/*
 * tb_trace_counts - how many callback runs and publishes a trace recorded
 * for each callback and publisher of a testbed run, named with the ground
 * truth: "callback NODE CALLBACK_NAME COUNT" and "publish NODE TOPIC COUNT",
 * one line each, every entity of the truth listed (0 when none recorded).
 * Merged and unmerged forms both count.
 *
 * usage: tb_trace_counts TRACE_DIR TRUTH_DIR PID_FILE
 */
#define _DEFAULT_SOURCE /* strsep */
#include "ctf_iter.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entity {
	int64_t pid;
	bool callback; /* else a publisher */
	uint64_t key;  /* callback address or publisher handle */
	char node[256], name[256];
	unsigned count;
};

static struct entity entities[8192];
static size_t n_entities;

static void read_entities(const char *dir, const char *process, int64_t pid)
{
	char path[4096], line[2048];
	snprintf(path, sizeof path, "%s/%s.entities.%" PRId64 ".csv", dir, process, pid);
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof line, f) && n_entities < 8192) {
		char *col[10] = { 0 }, *rest = line, *c;
		int k = 0;
		while (k < 10 && (c = strsep(&rest, ",")))
			col[k++] = c;
		if (k < 7)
			continue;
		bool cb = !strcmp(col[1], "timer") || !strcmp(col[1], "subscription") ||
			  !strcmp(col[1], "service");
		if (!cb && strcmp(col[1], "publisher"))
			continue;
		struct entity *e = &entities[n_entities++];
		e->pid = pid;
		e->callback = cb;
		e->key = strtoull(cb ? col[5] : col[4], NULL, 16);
		snprintf(e->node, sizeof e->node, "%s", col[2]);
		/* timers are named by callback, the others by topic / service */
		snprintf(e->name, sizeof e->name, "%s", col[3]);
	}
	if (f)
		fclose(f);
}

static int64_t vpid(const bt_event *ev)
{
	const bt_field *ctx = bt_event_borrow_common_context_field_const(ev);
	const bt_field *f = ctx ?
		bt_field_structure_borrow_member_field_by_name_const(ctx, "vpid") : NULL;
	return f ? bt_field_integer_signed_get_value(f) : -1;
}

static uint64_t u64(const bt_event *ev, const char *name)
{
	const bt_field *p = bt_event_borrow_payload_field_const(ev);
	const bt_field *f = p ? bt_field_structure_borrow_member_field_by_name_const(p, name) : NULL;
	return f ? bt_field_integer_unsigned_get_value(f) : 0;
}

static void count(int64_t pid, bool callback, uint64_t key)
{
	for (size_t i = 0; i < n_entities; i++)
		if (entities[i].pid == pid && entities[i].callback == callback &&
		    entities[i].key == key)
			entities[i].count++;
}

static int on_event(const bt_event *ev, uint64_t clock, void *user)
{
	const char *name = bt_event_class_get_name(bt_event_borrow_class_const(ev));
	(void)clock;
	(void)user;
	if (!strcmp(name, "ros2:callback_end") ||
	    !strcmp(name, "ros2_caret:merged_callback_timing"))
		count(vpid(ev), true, u64(ev, "callback"));
	else if (!strcmp(name, "ros2:rclcpp_publish") ||
		 !strcmp(name, "ros2:rclcpp_intra_publish") ||
		 !strcmp(name, "ros2_caret:merged_publish_timing"))
		count(vpid(ev), false, u64(ev, "publisher_handle"));
	return 0;
}

int main(int argc, char **argv)
{
	char process[128], err[1024];
	int64_t pid;

	if (argc != 4) {
		fprintf(stderr, "usage: tb_trace_counts TRACE_DIR TRUTH_DIR PID_FILE\n");
		return 2;
	}
	FILE *pf = fopen(argv[3], "r");
	while (pf && fscanf(pf, "%127s %" SCNd64, process, &pid) == 2)
		read_entities(argv[2], process, pid);
	if (pf)
		fclose(pf);
	struct ca_ctf_handlers h = { on_event, NULL, NULL, NULL };
	if (ca_ctf_iterate(argv[1], &h, err, sizeof err) != 0) {
		fprintf(stderr, "tb_trace_counts: %s\n", err);
		return 1;
	}
	for (size_t i = 0; i < n_entities; i++)
		printf("%s %s %s %u\n", entities[i].callback ? "callback" : "publish",
			entities[i].node, entities[i].name, entities[i].count);
	return 0;
}
