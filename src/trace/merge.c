/* merge.c - see merge.h. Only thread-local state: no lock, no allocation. */
#include "merge.h"

#include <string.h>

#include "ros2_caret_tp.h"

#define MAX_NESTING 16

struct pending_callback {
	const void *callback;
	uint64_t start;
	int32_t intra;
};

struct chain {
	bool active;
	int depth; /* callback nesting depth it started at */
	const void *publisher, *message;
	uint64_t t_rclcpp, t_rcl, t_dds;
};

static CT_TLS struct pending_callback stack[MAX_NESTING];
static CT_TLS int depth;
static CT_TLS struct chain chain;

static void emit_chain(uint64_t source_stamp)
{
	lttng_ust_tracepoint(ros2_caret, merged_publish_timing, chain.publisher,
		chain.message, chain.t_rclcpp, chain.t_rcl, chain.t_dds, source_stamp);
	chain.active = false;
}

static void start_chain(const void *publisher, const void *message)
{
	if (chain.active)
		emit_chain(0);
	chain = (struct chain){ .active = true, .depth = depth,
		.publisher = publisher, .message = message };
}

void ct_merge_publish(enum ct_publish_stage stage, const void *publisher,
	const void *message, int64_t time)
{
	uint64_t now = (uint64_t)time;
	/* A later stage of the chain in progress, or a new chain. */
	bool continues = chain.active && chain.message == message &&
		(stage == CT_STAGE_RCL ? !chain.t_rcl && !chain.t_dds :
		 stage == CT_STAGE_DDS_WRITE ? !chain.t_dds : false);

	if (!continues)
		start_chain(publisher, message);
	if (publisher && !chain.publisher)
		chain.publisher = publisher;
	switch (stage) {
	case CT_STAGE_RCLCPP: chain.t_rclcpp = now; break;
	case CT_STAGE_RCL: chain.t_rcl = now; break;
	case CT_STAGE_DDS_WRITE: chain.t_dds = now; break;
	}
}

void ct_merge_bind(const void *message, uint64_t source_stamp)
{
	if (!(chain.active && chain.message == message))
		start_chain(NULL, message);
	emit_chain(source_stamp);
}

void ct_merge_callback_start(const void *callback, bool intra)
{
	if (depth == MAX_NESTING) { /* deeper than we track: forget the oldest */
		memmove(stack, stack + 1, (MAX_NESTING - 1) * sizeof *stack);
		depth--;
	}
	stack[depth++] = (struct pending_callback){ callback, (uint64_t)ct_now(), intra };
}

void ct_merge_callback_end(const void *callback)
{
	int k = depth;
	while (k > 0 && stack[k - 1].callback != callback)
		k--;
	/* A publish started in this callback (or deeper) ends with it. */
	if (chain.active && chain.depth >= (k ? k : depth))
		emit_chain(0);
	if (k == 0) { /* its start was not seen (recording began meanwhile) */
		lttng_ust_tracepoint(ros2_caret, merged_callback_timing, callback, 0, 0);
		return;
	}
	const struct pending_callback *p = &stack[k - 1];
	lttng_ust_tracepoint(ros2_caret, merged_callback_timing, callback, p->start,
		p->intra);
	depth = k - 1;
}
