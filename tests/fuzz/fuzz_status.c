/*
 * fuzz_status - libFuzzer target: Status messages built from the input
 * reach the recorder's process table over real DDS (in this process, on a
 * loopback-pinned domain), written either by a tracer's endpoint (a
 * participant with a Start reader) or by a foreign writer. Whatever they
 * say, the table holds at most the one tracer, under the first name it gave.
 *
 * Input: byte 0 bit 0 the writer (0 tracer, 1 foreign); byte 1 the state;
 * bytes 2-9 the pid; then NUL-separated strings: the name, then node names.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "processes.h"

static struct cc_endpoints recorder, tracer;
static dds_entity_t foreign;
static struct cr_processes *table;

static void wait_matched(void)
{
	for (int i = 0; i < 500; i++) {
		dds_publication_matched_status_t m;
		dds_subscription_matched_status_t s;
		dds_get_publication_matched_status(recorder.start, &m);
		dds_get_subscription_matched_status(recorder.status, &s);
		if (m.current_count >= 1 && s.current_count >= 2)
			return;
		dds_sleepfor(DDS_MSECS(10));
	}
	abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	char err[256];
	int domain = cc_domain_from_env();
	if (cc_open(&recorder, domain, CC_RECORDER, err, sizeof err) ||
	    cc_open(&tracer, domain, CC_TRACER, err, sizeof err)) {
		fprintf(stderr, "fuzz_status: %s\n", err);
		abort();
	}
	dds_entity_t pp = dds_create_participant((dds_domainid_t)domain, NULL, NULL);
	dds_entity_t topic = dds_create_topic(pp, &caret_msgs_msg_dds__Status__desc,
		"rt/caret/status", NULL, NULL);
	dds_qos_t *qos = dds_create_qos();
	dds_qset_reliability(qos, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
	dds_qset_history(qos, DDS_HISTORY_KEEP_LAST, 1);
	foreign = dds_create_writer(pp, topic, qos, NULL);
	dds_delete_qos(qos);
	table = cr_processes_create(recorder.status, recorder.start);
	if (foreign < 0 || !table)
		abort();
	wait_matched();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 10)
		return 0;
	char *text = calloc(1, size - 10 + 1), *names[16];
	if (!text)
		return 0;
	memcpy(text, data + 10, size - 10);
	int64_t pid;
	memcpy(&pid, data + 2, sizeof pid);
	/* the strings: the name, then up to 16 node names */
	uint32_t n = 0;
	char *at = text + strlen(text) + 1, *end = text + (size - 10);
	while (at < end && n < 16) {
		names[n++] = at;
		at += strlen(at) + 1;
	}
	cc_status s = { .caret_node_name = text, .status = (int8_t)data[1], .pid = pid,
		.node_names = { ._length = n, ._maximum = n, ._buffer = names } };
	dds_write(data[0] & 1 ? foreign : tracer.status, &s);
	free(text);
	cr_processes_update(table, true);
	if (cr_processes_count(table) > 1)
		abort(); /* a phantom process */
	if (cr_processes_count(table) == 1 &&
	    strncmp(cr_processes_at(table, 0)->name, "caret_trace_", 12))
		abort(); /* a malformed name taken */
	return 0;
}
