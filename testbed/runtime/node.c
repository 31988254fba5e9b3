/* node.c - nodes and callback groups (rclcpp::Node, create_callback_group). */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetools/tracetools.h"

static char *make_fqn(const char *ns, const char *name)
{
	size_t n = strlen(ns) + strlen(name) + 2;
	char *fqn = malloc(n);

	if (fqn)
		snprintf(fqn, n, "%s/%s", strcmp(ns, "/") == 0 ? "" : ns, name);
	return fqn;
}

tb_node *tb_node_create(tb_context *ctx, const char *name, const char *ns)
{
	if (!name || !*name || strchr(name, '/')) {
		tb_set_error("invalid node name '%s'", name ? name : "");
		return NULL;
	}
	if (!ns || !*ns)
		ns = "/";
	if (ns[0] != '/') {
		tb_set_error("node namespace '%s' must start with '/'", ns);
		return NULL;
	}
	tb_node *node = calloc(1, sizeof *node);
	if (!node)
		return NULL;
	node->ctx = ctx;
	node->name = tb_strdup(name);
	node->ns = tb_strdup(ns);
	node->fqn = make_fqn(ns, name);
	node->node_base.node = node;

	ros_trace_rcl_node_init(&node->rcl_handle, &node->rmw_handle, name, ns);
	tb_truth_entity(ctx->truth, "node", node->fqn, name, &node->rcl_handle,
		NULL, NULL, NULL, 0);
	/* rclcpp::Node makes its default, mutually exclusive group. */
	node->default_group = tb_group_create(node, TB_GROUP_MUTUALLY_EXCLUSIVE);
	pthread_mutex_lock(&ctx->lock);
	tb_list_push(&ctx->nodes, node);
	pthread_mutex_unlock(&ctx->lock);
	return node;
}

const char *tb_node_fqn(const tb_node *node)
{
	return node->fqn;
}

tb_context *tb_node_context(const tb_node *node)
{
	return node->ctx;
}

tb_callback_group *tb_node_default_group(tb_node *node)
{
	return node->default_group;
}

tb_callback_group *tb_group_create(tb_node *node, enum tb_group_type type)
{
	tb_callback_group *group = calloc(1, sizeof *group);

	if (!group)
		return NULL;
	group->rclcpp.type = type;
	group->node = node;
	tb_list_push(&node->groups, group);
	tb_truth_entity(node->ctx->truth, "callback_group", node->fqn,
		type == TB_GROUP_REENTRANT ? "reentrant" : "mutually_exclusive",
		NULL, NULL, group, NULL, 0);
	return group;
}
