/* rmw_abi_probe.c - the places src/trace/rmw_abi.h gives (from which the
 * tracer reads service requests without rmw's headers) against a real
 * tree's rmw headers: compiled and run by test_rmw_abi.sh, once per tree.
 * A mismatch fails to compile. */
#include <stddef.h>
#include <stdio.h>

#include <rmw/rmw.h>
#include <rmw/types.h>

#define CT_RMW_ABI_TYPES_ONLY
#include "rmw_abi.h"

#define SAME_PLACE(ours, theirs, field) \
	_Static_assert(offsetof(ours, field) == offsetof(theirs, field), #theirs "." #field " moved")

SAME_PLACE(struct ct_rmw_request_id, rmw_request_id_t, writer_guid);
SAME_PLACE(struct ct_rmw_request_id, rmw_request_id_t, sequence_number);
_Static_assert(sizeof(struct ct_rmw_request_id) == sizeof(rmw_request_id_t), "rmw_request_id_t's size");
_Static_assert(sizeof(((rmw_request_id_t *)0)->writer_guid) == CT_RMW_REQUEST_GUID_LENGTH,
	"rmw_request_id_t.writer_guid's length");
SAME_PLACE(struct ct_rmw_service_info, rmw_service_info_t, source_timestamp);
SAME_PLACE(struct ct_rmw_service_info, rmw_service_info_t, received_timestamp);
SAME_PLACE(struct ct_rmw_service_info, rmw_service_info_t, request_id);
_Static_assert(sizeof(rmw_ret_t) == sizeof(ct_rmw_ret), "rmw_ret_t's size");
_Static_assert(RMW_RET_OK == CT_RMW_RET_OK, "RMW_RET_OK");
SAME_PLACE(struct ct_rmw_message_info_head, rmw_message_info_t, source_timestamp);
SAME_PLACE(struct ct_rmw_message_info_head, rmw_message_info_t, received_timestamp);
SAME_PLACE(struct ct_rmw_subscription_head, rmw_subscription_t, implementation_identifier);
SAME_PLACE(struct ct_rmw_gid, rmw_gid_t, data);
_Static_assert(sizeof(((rmw_gid_t *)0)->data) <= sizeof(((struct ct_rmw_gid *)0)->data),
	"rmw_gid_t.data is longer");

int main(void)
{
	printf("ok: rmw's service types as rmw_abi.h states (gid data %zu bytes)\n",
		sizeof(((rmw_gid_t *)0)->data));
	return 0;
}
