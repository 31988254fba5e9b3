/* control.c - see control.h. */
#include "control.h"

#include <stdio.h>
#include <stdlib.h>

int cc_domain_from_env(void)
{
	const char *env = getenv("ROS_DOMAIN_ID");
	char *end;
	long d = env && *env ? strtol(env, &end, 10) : 0;

	return env && *env && *end == '\0' && d >= 0 && d <= 232 ? (int)d : 0;
}

static dds_entity_t endpoint(dds_entity_t participant, const char *name,
	const dds_topic_descriptor_t *desc, bool writer, const dds_qos_t *qos)
{
	dds_entity_t topic = dds_create_topic(participant, desc, name, NULL, NULL);

	if (topic < 0)
		return topic;
	return writer ? dds_create_writer(participant, topic, qos, NULL) :
			dds_create_reader(participant, topic, qos, NULL);
}

int cc_open(struct cc_endpoints *ep, int domain, enum cc_side side, char *err,
	size_t err_size)
{
	bool tracer = side == CC_TRACER;

	ep->participant = dds_create_participant((dds_domainid_t)domain, NULL, NULL);
	if (ep->participant < 0) {
		snprintf(err, err_size, "cannot join DDS domain %d: %s", domain,
			dds_strretcode(ep->participant));
		return -1;
	}
	dds_qos_t *qos = dds_create_qos();
	dds_qset_reliability(qos, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
	dds_qset_history(qos, DDS_HISTORY_KEEP_LAST, 1);
	dds_qset_durability(qos, DDS_DURABILITY_VOLATILE);
	ep->start = endpoint(ep->participant, "rt/caret/start_record",
		&caret_msgs_msg_dds__Start__desc, !tracer, qos);
	ep->end = endpoint(ep->participant, "rt/caret/end_record",
		&caret_msgs_msg_dds__End__desc, !tracer, qos);
	/* Status has no key: with every tracer writing it, a reader keeping one
	 * sample would lose all but the last. History depth is the reader's
	 * own business (it does not take part in matching). */
	if (!tracer)
		dds_qset_history(qos, DDS_HISTORY_KEEP_LAST, 1024);
	ep->status = endpoint(ep->participant, "rt/caret/status",
		&caret_msgs_msg_dds__Status__desc, tracer, qos);
	dds_delete_qos(qos);
	if (ep->start < 0 || ep->end < 0 || ep->status < 0) {
		snprintf(err, err_size, "cannot create the caret control topics: %s",
			dds_strretcode(ep->start < 0 ? ep->start : ep->end < 0 ? ep->end : ep->status));
		cc_close(ep);
		return -1;
	}
	return 0;
}

void cc_close(struct cc_endpoints *ep)
{
	if (ep->participant > 0)
		dds_delete(ep->participant);
	ep->participant = 0;
}

const char *cc_state_name(int state)
{
	switch (state) {
	case CC_WAIT: return "WAIT";
	case CC_PREPARE: return "PREPARE";
	case CC_RECORD: return "RECORD";
	default: return "UNINITIALIZED";
	}
}
