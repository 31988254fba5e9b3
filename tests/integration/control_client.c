/*
 * control_client - a plain DDS client of the caret control topics, written
 * against the wire contract only (caret_msgs types, topic names, QoS of
 * ../shared/reference/control-plane.md), not against our recorder.
 *
 * usage: control_client start [FREQUENCY]   write one Start
 *        control_client end                 write one End
 *        control_client status SECONDS      print every Status received:
 *                                           "NAME PID STATE NODE..."
 */
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
