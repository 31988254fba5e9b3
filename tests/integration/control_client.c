/*
 * control_client - a plain DDS client of the caret control topics, written
 * against the wire contract only (caret_msgs types, topic names, QoS of
 * ../shared/reference/control-plane.md), not against our recorder.
 *
 * usage: control_client start [FREQUENCY]   write one Start
 *        control_client end                 write one End
 *        control_client status SECONDS      print every Status received:
 *                                           "NAME PID STATE NODE..."
 * Hostile clients (tests/integration/test_record_hostile.sh):
 *        control_client flood-start SECONDS one writer, a Start every 2 ms
 *        control_client spoof-status N      N Status from a writer that is
 *                                           no tracer, each a new name
 *        control_client malformed-status N  N Status that no tracer writes
 *                                           (300-byte names, bad states)
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dds/dds.h>

#include "caret_msgs.h"

static dds_entity_t endpoint(dds_entity_t pp, const char *name,
	const dds_topic_descriptor_t *desc, int writer)
{
	dds_qos_t *qos = dds_create_qos();
	dds_qset_reliability(qos, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
	/* A reader keeps every tracer's Status (the type has no key). */
	dds_qset_history(qos, DDS_HISTORY_KEEP_LAST, writer ? 1 : 1024);
	dds_qset_durability(qos, DDS_DURABILITY_VOLATILE);
	dds_entity_t topic = dds_create_topic(pp, desc, name, NULL, NULL);
	dds_entity_t e = writer ? dds_create_writer(pp, topic, qos, NULL) :
				  dds_create_reader(pp, topic, qos, NULL);
	dds_delete_qos(qos);
	return e;
}

/* Waits (up to 5 s) until the matched readers stop changing for 500 ms,
 * so every tracer's reader is there for the one sample. */
static void wait_for_readers(dds_entity_t writer)
{
	dds_publication_matched_status_t st;
	uint32_t last = 0;
	int stable = 0;
	for (int i = 0; i < 500 && stable < 50; i++) {
		if (dds_get_publication_matched_status(writer, &st) == 0 &&
		    st.current_count != last) {
			last = st.current_count;
			stable = 0;
		} else if (last > 0) {
			stable++;
		}
		dds_sleepfor(DDS_MSECS(10));
	}
}

int main(int argc, char **argv)
{
	const char *env = getenv("ROS_DOMAIN_ID");
	dds_entity_t pp = dds_create_participant(env ? atoi(env) : 0, NULL, NULL);

	if (pp < 0 || argc < 2) {
		fprintf(stderr, "usage: control_client start [FREQUENCY] | end | status SECONDS\n");
		return 2;
	}
	if (!strcmp(argv[1], "start")) {
		dds_entity_t w = endpoint(pp, "rt/caret/start_record",
			&caret_msgs_msg_dds__Start__desc, 1);
		caret_msgs_msg_dds__Start_ s = { .recording_frequency =
			argc > 2 ? (uint32_t)atoi(argv[2]) : 0, .ignore_nodes = "",
			.ignore_topics = "", .select_nodes = "", .select_topics = "" };
		wait_for_readers(w);
		return dds_write(w, &s) < 0;
	}
	if (!strcmp(argv[1], "flood-start") && argc > 2) {
		dds_entity_t w = endpoint(pp, "rt/caret/start_record",
			&caret_msgs_msg_dds__Start__desc, 1);
		caret_msgs_msg_dds__Start_ s = { .recording_frequency = 0, .ignore_nodes = "",
			.ignore_topics = "", .select_nodes = "", .select_topics = "" };
		wait_for_readers(w);
		unsigned sent = 0;
		for (dds_time_t until = dds_time() + (dds_time_t)(atof(argv[2]) * 1e9);
		     dds_time() < until; sent++) {
			dds_write(w, &s);
			dds_sleepfor(DDS_MSECS(2));
		}
		printf("%u\n", sent);
		return 0;
	}
	if ((!strcmp(argv[1], "spoof-status") || !strcmp(argv[1], "malformed-status")) &&
	    argc > 2) {
		bool spoof = !strcmp(argv[1], "spoof-status");
		dds_entity_t w = endpoint(pp, "rt/caret/status", &caret_msgs_msg_dds__Status__desc, 1);
		char name[400], node[300];
		char *nodes[1] = { node };
		wait_for_readers(w);
		for (int i = 0; i < atoi(argv[2]); i++) {
			/* names a tracer could have, from a writer that is none; or
			 * names longer than any uuid, distinct only past byte 80, a
			 * name no tracer has, a state out of range */
			if (spoof)
				snprintf(name, sizeof name, "caret_trace_%08x_0000_0000_0000_"
					"000000000000", (unsigned)i);
			else if (i % 3 == 0)
				snprintf(name, sizeof name, "caret_trace_%0300d", i);
			else
				snprintf(name, sizeof name, "%s", i % 3 == 1 ? "robot" : "caret_trace_zz");
			snprintf(node, sizeof node, "/spoof_%d", i);
			caret_msgs_msg_dds__Status_ st = { .caret_node_name = name,
				.status = (int8_t)(spoof || i % 3 != 2 ? 1 : 7), .pid = 100000 + i,
				.node_names = { ._length = 1, ._maximum = 1, ._buffer = nodes } };
			dds_write(w, &st);
			dds_sleepfor(DDS_MSECS(1));
		}
		dds_sleepfor(DDS_MSECS(500)); /* delivered before the participant goes */
		return 0;
	}
	if (!strcmp(argv[1], "end")) {
		dds_entity_t w = endpoint(pp, "rt/caret/end_record",
			&caret_msgs_msg_dds__End__desc, 1);
		caret_msgs_msg_dds__End_ e = { 0 };
		wait_for_readers(w);
		return dds_write(w, &e) < 0;
	}
	if (!strcmp(argv[1], "status") && argc > 2) {
		dds_entity_t r = endpoint(pp, "rt/caret/status",
			&caret_msgs_msg_dds__Status__desc, 0);
		dds_time_t until = dds_time() + (dds_time_t)(atof(argv[2]) * 1e9);
		while (dds_time() < until) {
			void *samples[16] = { NULL };
			dds_sample_info_t infos[16];
			int n = dds_take(r, samples, infos, 16, 16);
			for (int i = 0; i < n; i++) {
				const caret_msgs_msg_dds__Status_ *s = samples[i];
				if (!infos[i].valid_data)
					continue;
				printf("%s %lld %d", s->caret_node_name, (long long)s->pid, s->status);
				for (uint32_t k = 0; k < s->node_names._length; k++)
					printf(" %s", s->node_names._buffer[k]);
				printf("\n");
				fflush(stdout);
			}
			if (n > 0)
				dds_return_loan(r, samples, n);
			dds_sleepfor(DDS_MSECS(20));
		}
		return 0;
	}
	fprintf(stderr, "usage: control_client start [FREQUENCY] | end | status SECONDS\n");
	return 2;
}
