/*
 * tf_abi.h - what a tf2::TimeCache holds, read as libtf2 lays it out in
 * Humble and Jazzy (tests/unit/tf_abi_probe.cpp checks this against each
 * tree's headers and libtf2), and the transforms a getData() used.
 *
 * A TimeCache is a vtable pointer, then its std::list<TransformStorage>
 * (newest first): libstdc++'s list is a node header (next, prev, size) and
 * nodes of (next, prev, value).
 */
#ifndef CARET_TRACE_TF_ABI_H
#define CARET_TRACE_TF_ABI_H

#include <stddef.h>
#include <stdint.h>

#define CT_TF_CACHE_LIST_OFFSET 8 /* TimeCache::storage_ */
#define CT_TF_NODE_VALUE_OFFSET 16 /* a list node's TransformStorage */

struct ct_tf_list_node {
	const struct ct_tf_list_node *next, *prev;
};

/* tf2::TransformStorage: rotation (a Quaternion, 4 doubles), translation (a
 * Vector3, 4 doubles), stamp (ns), parent and child frame numbers. */
struct ct_tf_storage {
	double rotation[4], translation[4];
	int64_t stamp;
	uint32_t frame_id, child_frame_id;
};

/* The transforms a lookup at `time` used of one edge: the older (or only)
 * one, and the newer one tf2 interpolated with (stamp 0 when none). */
struct ct_tf_closest {
	uint32_t frame, child;
	int64_t stamp;
	uint32_t frame_, child_;
	int64_t stamp_;
};

static inline const struct ct_tf_storage *ct_tf_value(const struct ct_tf_list_node *n)
{
	return (const struct ct_tf_storage *)((const char *)n + CT_TF_NODE_VALUE_OFFSET);
}

/* What TimeCache::findClosest picks for `time` (0: the latest), after a
 * getData() that succeeded, under the buffer's frame mutex (the list cannot
 * move): 1 or 2 transforms, 0 when the list does not give what getData did. */
static inline int ct_tf_find_closest(const void *cache, int64_t time, struct ct_tf_closest *out)
{
	const struct ct_tf_list_node *head =
		(const struct ct_tf_list_node *)((const char *)cache + CT_TF_CACHE_LIST_OFFSET);
	const struct ct_tf_list_node *first = head->next, *last = head->prev;
	if (first == head)
		return 0;
	const struct ct_tf_storage *one = ct_tf_value(first), *two = NULL;
	if (time != 0 && first != last && time != one->stamp) {
		if (time == ct_tf_value(last)->stamp) {
			one = ct_tf_value(last);
		} else {
			/* the first at or before time (older), and the one before it */
			const struct ct_tf_list_node *n = first;
			while (n != head && ct_tf_value(n)->stamp > time)
				n = n->next;
			if (n == head || n == first)
				return 0;
			one = ct_tf_value(n);
			two = ct_tf_value(n->prev);
		}
	}
	*out = (struct ct_tf_closest){ one->frame_id, one->child_frame_id, one->stamp,
		two ? two->frame_id : 0, two ? two->child_frame_id : 0, two ? two->stamp : 0 };
	return two ? 2 : 1;
}

#endif
