/*
 * executor.c - single-threaded, multi-threaded and static single-threaded
 * executors. One waitset per executor holds a read condition per reader and
 * a guard condition for intra-process messages. Threads pick ready work
 * under the executor's lock, rclcpp's order (timers, subscriptions,
 * services, clients), honouring mutually exclusive groups; at most one
 * thread waits on the waitset, the others on a condition variable.
 */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "rclcpp_abi.h"
#include "tracetools/tracetools.h"

#define TB_MAX_WAIT_NS 100000000 /* shutdown is noticed within this */

enum ready_kind { READY_NONE, READY_TIMER, READY_SUB, READY_SERVICE, READY_CLIENT };

struct ready {
	enum ready_kind kind;
	void *entity;
	tb_callback_group *group;
};

void tb_executor_construct(tb_executor *exec, enum tb_executor_type type,
	unsigned threads)
{
	tb_context *ctx = exec->ctx;

	exec->type = type;
	exec->threads = threads;
	pthread_mutex_init(&exec->lock, NULL);
	pthread_cond_init(&exec->idle, NULL);
	exec->waitset = dds_create_waitset(ctx->participant);
	exec->wakeup = dds_create_guardcondition(ctx->participant);
	if (exec->waitset > 0 && exec->wakeup > 0)
		dds_waitset_attach(exec->waitset, exec->wakeup, 0);
	if (type == TB_EXECUTOR_STATIC_SINGLE_THREADED) {
		struct tb_entities_collector *c = calloc(1, sizeof *c);
		if (c)
			c->executor = exec;
		exec->rclcpp.entities_collector.ptr = c;
	}
}

tb_executor *tb_executor_create(tb_context *ctx, enum tb_executor_type type,
	unsigned threads)
{
	static const char options[64]; /* rclcpp::ExecutorOptions stand-in */
	tb_executor *exec = calloc(1, sizeof *exec);

	if (!exec)
		return NULL;
	exec->ctx = ctx;
	switch (type) {
	case TB_EXECUTOR_SINGLE_THREADED:
		tb_rclcpp_single_threaded_executor_ctor(exec, options);
		break;
	case TB_EXECUTOR_MULTI_THREADED:
		tb_rclcpp_multi_threaded_executor_ctor(exec, options,
			threads ? threads : 2, false, -1);
		break;
	case TB_EXECUTOR_STATIC_SINGLE_THREADED:
		tb_rclcpp_static_single_threaded_executor_ctor(exec, options);
		break;
	}
	if (exec->waitset <= 0 || exec->wakeup <= 0 ||
	    (type == TB_EXECUTOR_STATIC_SINGLE_THREADED &&
	     !exec->rclcpp.entities_collector.ptr)) {
		tb_set_error("cannot create the executor's waitset");
		free(exec);
		return NULL;
	}
	static const char *const type_name[] = {
		[TB_EXECUTOR_SINGLE_THREADED] = "single_threaded_executor",
		[TB_EXECUTOR_MULTI_THREADED] = "multi_threaded_executor",
		[TB_EXECUTOR_STATIC_SINGLE_THREADED] = "static_single_threaded_executor",
	};
	/* callback column: the static executor's entities collector. */
	tb_truth_entity(ctx->truth, "executor", "", type_name[type], exec,
		exec->rclcpp.entities_collector.ptr, NULL, NULL, 0);
	pthread_mutex_lock(&ctx->lock);
	tb_list_push(&ctx->executors, exec);
	pthread_mutex_unlock(&ctx->lock);
	return exec;
}

static void attach(tb_executor *exec, dds_entity_t cond, void *entity)
{
	if (cond > 0)
		dds_waitset_attach(exec->waitset, cond, (dds_attach_t)entity);
}

int tb_executor_attach_group(tb_executor *exec, tb_callback_group *group)
{
	if (group->executor) {
		tb_set_error("callback group of %s already added to an executor",
			group->node->fqn);
		return -1;
	}
	group->executor = exec;
	tb_list_push(&exec->groups, group);
	tb_truth_entity(exec->ctx->truth, "executor_group", group->node->fqn,
		group->rclcpp.type == TB_GROUP_REENTRANT ? "reentrant" : "mutually_exclusive",
		exec, NULL, group, NULL, 0);
	for (size_t i = 0; i < group->subscriptions.count; i++) {
		tb_subscription *s = group->subscriptions.items[i];
		attach(exec, s->ready, s);
	}
	for (size_t i = 0; i < group->services.count; i++) {
		tb_service *s = group->services.items[i];
		attach(exec, s->ready, s);
	}
	for (size_t i = 0; i < group->clients.count; i++) {
		tb_client *c = group->clients.items[i];
		attach(exec, c->ready, c);
	}
	return 0;
}

int tb_executor_add_node(tb_executor *exec, tb_node *node)
{
	static char weak_groups_to_nodes[48]; /* std::map stand-in, unused */
	struct tb_shared_ptr node_sp = { &node->node_base, NULL };

	for (size_t i = 0; i < node->groups.count; i++) {
		tb_callback_group *group = node->groups.items[i];
		struct tb_shared_ptr group_sp = { group, NULL };
		if (group->executor) {
			tb_set_error("callback group of %s already added to an executor",
				node->fqn);
			return -1;
		}
		if (exec->type == TB_EXECUTOR_STATIC_SINGLE_THREADED)
			tb_rclcpp_entities_collector_add_callback_group(
				exec->rclcpp.entities_collector.ptr, &group_sp,
				&node_sp, weak_groups_to_nodes);
		else
			tb_rclcpp_executor_add_callback_group_to_map(exec, &group_sp,
				&node_sp, weak_groups_to_nodes, true);
	}
	return 0;
}

void tb_executor_wake(tb_executor *exec)
{
	dds_set_guardcondition(exec->wakeup, true);
}

static bool timer_due(tb_timer *t, int64_t now)
{
	if (now < t->next_call)
		return false;
	/* Like rcl_timer_call: next period, skipping the ones missed. */
	t->next_call += t->period;
	if (t->next_call <= now)
		t->next_call += ((now - t->next_call) / t->period + 1) * t->period;
	return true;
}

static bool claim(atomic_bool *taking, dds_entity_t cond)
{
	if (atomic_load(taking) || dds_triggered(cond) <= 0)
		return false;
	atomic_store(taking, true);
	return true;
}

/* Under exec->lock. */
static bool pick_in_group(tb_callback_group *g, int64_t now, struct ready *r)
{
	for (size_t i = 0; i < g->timers.count; i++)
		if (timer_due(g->timers.items[i], now)) {
			*r = (struct ready){ READY_TIMER, g->timers.items[i], g };
			return true;
		}
	for (size_t i = 0; i < g->subscriptions.count; i++) {
		tb_subscription *s = g->subscriptions.items[i];
		if (atomic_load(&s->taking))
			continue;
		if (tb_intra_pending(&s->intra) || claim(&s->taking, s->ready)) {
			atomic_store(&s->taking, true);
			*r = (struct ready){ READY_SUB, s, g };
			return true;
		}
	}
	for (size_t i = 0; i < g->services.count; i++) {
		tb_service *s = g->services.items[i];
		if (claim(&s->taking, s->ready)) {
			*r = (struct ready){ READY_SERVICE, s, g };
			return true;
		}
	}
	for (size_t i = 0; i < g->clients.count; i++) {
		tb_client *c = g->clients.items[i];
		if (claim(&c->taking, c->ready)) {
			*r = (struct ready){ READY_CLIENT, c, g };
			return true;
		}
	}
	return false;
}

static bool pick_ready(tb_executor *exec, struct ready *r)
{
	int64_t now = tb_now();

	for (size_t i = 0; i < exec->groups.count; i++) {
		tb_callback_group *g = exec->groups.items[i];
		if (g->busy)
			continue;
		if (pick_in_group(g, now, r)) {
			if (g->rclcpp.type == TB_GROUP_MUTUALLY_EXCLUSIVE)
				g->busy = true;
			return true;
		}
	}
	return false;
}

static void execute(const struct ready *r)
{
	switch (r->kind) {
	case READY_TIMER: tb_execute_timer(r->entity); break;
	case READY_SUB: tb_execute_subscription(r->entity); break;
	case READY_SERVICE: tb_execute_service(r->entity); break;
	case READY_CLIENT: tb_execute_client(r->entity); break;
	case READY_NONE: break;
	}
}

/* Time until the next timer is due, capped so shutdown is noticed. */
static int64_t wait_timeout(tb_executor *exec)
{
	int64_t now = tb_now(), timeout = TB_MAX_WAIT_NS;

	for (size_t i = 0; i < exec->groups.count; i++) {
		tb_callback_group *g = exec->groups.items[i];
		for (size_t j = 0; j < g->timers.count; j++) {
			tb_timer *t = g->timers.items[j];
			if (t->next_call - now < timeout)
				timeout = t->next_call - now;
		}
	}
	return timeout < 0 ? 0 : timeout;
}

static void wait_idle(tb_executor *exec, long ns)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += ns;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	pthread_cond_timedwait(&exec->idle, &exec->lock, &until);
}

static void *spin_thread(void *arg)
{
	tb_executor *exec = arg;
	bool static_exec = exec->type == TB_EXECUTOR_STATIC_SINGLE_THREADED;
	struct ready r;

	pthread_mutex_lock(&exec->lock);
	while (tb_context_ok(exec->ctx) && !exec->error) {
		if (!static_exec)
			ros_trace_rclcpp_executor_get_next_ready();
		if (pick_ready(exec, &r)) {
			exec->running++;
			pthread_mutex_unlock(&exec->lock);
			execute(&r);
			pthread_mutex_lock(&exec->lock);
			exec->running--;
			r.group->busy = false;
			pthread_cond_broadcast(&exec->idle);
			continue;
		}
		/* While callbacks run, the waitset may stay triggered by data
		 * their busy group cannot take yet: poll instead of spinning. */
		if (exec->someone_waits || exec->running) {
			wait_idle(exec, exec->running ? 1000000 : 20000000);
			continue;
		}
		exec->someone_waits = true;
		int64_t timeout = wait_timeout(exec);
		pthread_mutex_unlock(&exec->lock);
		if (!static_exec)
			ros_trace_rclcpp_executor_wait_for_work(timeout);
		dds_return_t rc = dds_waitset_wait(exec->waitset, NULL, 0, timeout);
		dds_set_guardcondition(exec->wakeup, false);
		pthread_mutex_lock(&exec->lock);
		if (rc < 0) {
			tb_set_error("dds_waitset_wait: %s", dds_strretcode(rc));
			exec->error = 1;
		}
		exec->someone_waits = false;
		pthread_cond_broadcast(&exec->idle);
	}
	pthread_mutex_unlock(&exec->lock);
	return NULL;
}

int tb_executor_spin(tb_executor *exec)
{
	unsigned n = exec->type == TB_EXECUTOR_MULTI_THREADED ? exec->threads : 1;
	pthread_t *threads = calloc(n, sizeof *threads);
	unsigned started = 0;

	if (!threads)
		return -1;
	for (unsigned i = 1; i < n; i++)
		if (pthread_create(&threads[i], NULL, spin_thread, exec) == 0)
			started = i;
		else
			break;
	spin_thread(exec);
	for (unsigned i = 1; i <= started; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	return exec->error ? -1 : 0;
}
