/* rclcpp_abi.c - the hookable rclcpp functions (see rclcpp_abi.h): what
 * librclcpp.so's versions do, in the runtime's terms. */
#include "rclcpp_abi.h"

#include "internal.h"

void tb_rclcpp_single_threaded_executor_ctor(void *self, const void *options)
{
	(void)options;
	tb_executor_construct(self, TB_EXECUTOR_SINGLE_THREADED, 1);
}

void tb_rclcpp_multi_threaded_executor_ctor(void *self, const void *options,
	size_t number_of_threads, bool yield_before_execute, int64_t timeout_ns)
{
	(void)options;
	(void)yield_before_execute;
	(void)timeout_ns;
	tb_executor_construct(self, TB_EXECUTOR_MULTI_THREADED,
		number_of_threads ? (unsigned)number_of_threads : 2);
}

void tb_rclcpp_static_single_threaded_executor_ctor(void *self, const void *options)
{
	(void)options;
	tb_executor_construct(self, TB_EXECUTOR_STATIC_SINGLE_THREADED, 1);
}

void tb_rclcpp_executor_add_callback_group_to_map(void *self,
	struct tb_shared_ptr *group, struct tb_shared_ptr *node,
	void *weak_groups_to_nodes, bool notify)
{
	(void)node;
	(void)weak_groups_to_nodes;
	(void)notify;
	tb_executor_attach_group(self, group->ptr);
}

bool tb_rclcpp_entities_collector_add_callback_group(void *self,
	struct tb_shared_ptr *group, struct tb_shared_ptr *node,
	void *weak_groups_to_nodes)
{
	struct tb_entities_collector *collector = self;
	(void)node;
	(void)weak_groups_to_nodes;
	return tb_executor_attach_group(collector->executor, group->ptr) == 0;
}

void tb_rclcpp_group_add_timer(void *self, struct tb_shared_ptr *timer)
{
	tb_callback_group *group = self;
	tb_list_push(&group->timers, timer->ptr);
}

void tb_rclcpp_group_add_subscription(void *self, struct tb_shared_ptr *sub)
{
	tb_callback_group *group = self;
	tb_list_push(&group->subscriptions, sub->ptr);
}

void tb_rclcpp_group_add_service(void *self, struct tb_shared_ptr *service)
{
	tb_callback_group *group = self;
	tb_list_push(&group->services, service->ptr);
}

void tb_rclcpp_group_add_client(void *self, struct tb_shared_ptr *client)
{
	tb_callback_group *group = self;
	tb_list_push(&group->clients, client->ptr);
}

const int *tb_rclcpp_group_type(const void *self)
{
	const struct tb_callback_group_layout *group = self;
	return &group->type;
}

static struct tb_shared_ptr *handle_of(struct tb_shared_ptr *ret,
	const struct tb_shared_ptr *member)
{
	ret->ptr = member->ptr;
	ret->ctrl = NULL;
	return ret;
}

struct tb_shared_ptr *tb_rclcpp_timer_get_timer_handle(struct tb_shared_ptr *ret, void *self)
{
	return handle_of(ret, &((struct tb_timer_layout *)self)->timer_handle);
}

struct tb_shared_ptr *tb_rclcpp_subscription_get_handle(struct tb_shared_ptr *ret, void *self)
{
	return handle_of(ret, &((struct tb_subscription_layout *)self)->subscription_handle);
}

struct tb_shared_ptr *tb_rclcpp_service_get_handle(struct tb_shared_ptr *ret, void *self)
{
	return handle_of(ret, &((struct tb_service_layout *)self)->service_handle);
}

struct tb_shared_ptr *tb_rclcpp_client_get_handle(struct tb_shared_ptr *ret, void *self)
{
	return handle_of(ret, &((struct tb_client_layout *)self)->client_handle);
}
