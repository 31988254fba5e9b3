/* control.c - see control.h. */
#include "control.h"

#include <ifaddrs.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

int cc_domain_from_env(void)
{
	const char *env = getenv("ROS_DOMAIN_ID");
	char *end;
	long d = env && *env ? strtol(env, &end, 10) : 0;

	return env && *env && *end == '\0' && d >= 0 && d <= 232 ? (int)d : 0;
}

enum cc_discovery cc_discovery_from_env(void)
{
	const char *localhost = getenv("ROS_LOCALHOST_ONLY");
	const char *range = getenv("ROS_AUTOMATIC_DISCOVERY_RANGE");
	if (localhost && !strcmp(localhost, "1"))
		return CC_DISCOVERY_LOCALHOST;
	if (!range || !*range || !strcmp(range, "SUBNET"))
		return CC_DISCOVERY_SUBNET;
	if (!strcmp(range, "OFF"))
		return CC_DISCOVERY_OFF;
	if (!strcmp(range, "SYSTEM_DEFAULT"))
		return CC_DISCOVERY_SYSTEM_DEFAULT;
	return CC_DISCOVERY_LOCALHOST; /* LOCALHOST, and what rcl does not know */
}

/* A growing string; out of memory makes it NULL for good. */
struct text {
	char *s;
	size_t len;
};

static void add(struct text *t, const char *part, size_t n)
{
	char *grown = t->s ? realloc(t->s, t->len + n + 1) : NULL;
	if (!grown) {
		free(t->s);
		t->s = NULL;
		return;
	}
	memcpy(grown + t->len, part, n);
	t->len += n;
	grown[t->len] = '\0';
	t->s = grown;
}

static void adds(struct text *t, const char *part)
{
	add(t, part, strlen(part));
}

/* <Peer address="..."/> for each of ROS_STATIC_PEERS (';'-separated). */
static void add_static_peers(struct text *t)
{
	const char *peers = getenv("ROS_STATIC_PEERS");
	for (const char *p = peers ? peers : ""; *p;) {
		size_t n = strcspn(p, ";");
		if (n) {
			adds(t, "<Peer address=\"");
			add(t, p, n);
			adds(t, "\"/>");
		}
		p += n + (p[n] == ';');
	}
}

char *cc_domain_config(bool second_interface)
{
	const char *uri = getenv("CYCLONEDDS_URI");
	const char *peers = getenv("ROS_STATIC_PEERS");
	enum cc_discovery range = cc_discovery_from_env();
	bool localhost_only = getenv("ROS_LOCALHOST_ONLY") &&
		!strcmp(getenv("ROS_LOCALHOST_ONLY"), "1");
	struct text t = { calloc(1, 1), 0 };

	/* Empty fragments are ignored by Cyclone, so the comma is harmless. */
	adds(&t, "<CycloneDDS><Domain>");
	switch (range) {
	case CC_DISCOVERY_OFF:
		adds(&t, "<General><AllowMulticast>false</AllowMulticast></General>"
			"<Discovery><ParticipantIndex>none</ParticipantIndex></Discovery>");
		break;
	case CC_DISCOVERY_LOCALHOST:
		/* Humble's rmw pins 127.0.0.1, Jazzy's pins nothing, and a
		 * Cyclone on one interface uses no locator of another: on both.
		 * (A URI that chooses the interface decides instead.) */
		adds(&t, "<General>");
		if (!uri || !*uri)
			adds(&t, second_interface ? "<Interfaces><NetworkInterface address=\"127.0.0.1\"/>"
				"<NetworkInterface autodetermine=\"true\"/></Interfaces>" :
				"<Interfaces><NetworkInterface address=\"127.0.0.1\"/></Interfaces>");
		adds(&t, "<AllowMulticast>false</AllowMulticast></General>"
			"<Discovery><ParticipantIndex>auto</ParticipantIndex>"
			"<MaxAutoParticipantIndex>32</MaxAutoParticipantIndex>"
			"<Peers><Peer address=\"localhost\"/>");
		if (!localhost_only)
			add_static_peers(&t);
		adds(&t, "</Peers></Discovery>");
		break;
	case CC_DISCOVERY_SUBNET:
		adds(&t, "<Discovery><ParticipantIndex>auto</ParticipantIndex>"
			"<MaxAutoParticipantIndex>32</MaxAutoParticipantIndex>");
		if (peers && *peers) {
			adds(&t, "<Peers>");
			add_static_peers(&t);
			adds(&t, "</Peers>");
		}
		adds(&t, "</Discovery>");
		break;
	case CC_DISCOVERY_SYSTEM_DEFAULT:
		break;
	}
	adds(&t, "</Domain></CycloneDDS>,");
	adds(&t, uri ? uri : "");
	return t.s;
}

/* An IPv4 interface up besides loopback (none in a network namespace of
 * its own): Cyclone would pick it. */
static bool has_other_interface(void)
{
	struct ifaddrs *all;
	bool found = false;
	if (getifaddrs(&all) != 0)
		return false;
	for (struct ifaddrs *i = all; i && !found; i = i->ifa_next)
		found = i->ifa_addr && i->ifa_addr->sa_family == AF_INET &&
			(i->ifa_flags & IFF_UP) && !(i->ifa_flags & IFF_LOOPBACK);
	freeifaddrs(all);
	return found;
}

/* A participant on domain: in the domain this process already has, or in
 * a new one configured as rmw_cyclonedds_cpp would (an implicitly created
 * domain would read CYCLONEDDS_URI only). */
static dds_entity_t join_or_create(struct cc_endpoints *ep, int domain)
{
	dds_entity_t existing[1];
	ep->domain = 0;
	if (dds_lookup_participant((dds_domainid_t)domain, existing, 1) == 0) {
		char *config = cc_domain_config(has_other_interface());
		if (!config)
			return DDS_RETCODE_OUT_OF_RESOURCES;
		dds_entity_t d = dds_create_domain((dds_domainid_t)domain, config);
		free(config);
		/* Precondition not met: created meanwhile by someone else; join. */
		if (d < 0 && d != DDS_RETCODE_PRECONDITION_NOT_MET)
			return d;
		ep->domain = d > 0 ? d : 0;
	}
	return dds_create_participant((dds_domainid_t)domain, NULL, NULL);
}

/* The ROS type hashes (REP-2011, RIHS01) of caret_msgs Start, End and
 * Status, as Jazzy's rmw puts them in every endpoint's USER_DATA
 * ("typehash=...;"): without them, each Jazzy process's rmw logs a warning
 * for every control endpoint it discovers. Computed from the original
 * caret_msgs definitions with rosidl_generator_type_description
 * (tests/unit/test_caret_msgs_type_hash.sh recomputes them). Humble ignores
 * USER_DATA on endpoints. */
#define TYPE_HASH_START "RIHS01_a1004b3e18bd77cec7a5e25af7fe890d7338e69375cd2564f6f78f9ad293e05c"
#define TYPE_HASH_END "RIHS01_70cc00c258b28a0db2c3c80caa7ef4af4bc7d51a43c1bd2ca78e0123163ccb40"
#define TYPE_HASH_STATUS "RIHS01_ef68f3290e8a310dc513ea2988a0dfe51390a1a2e99cbafe2cbf09592848daf2"

static dds_entity_t endpoint(dds_entity_t participant, const char *name,
	const dds_topic_descriptor_t *desc, const char *type_hash, bool writer, dds_qos_t *qos)
{
	dds_entity_t topic = dds_create_topic(participant, desc, name, NULL, NULL);
	char user_data[96];

	if (topic < 0)
		return topic;
	int n = snprintf(user_data, sizeof user_data, "typehash=%s;", type_hash);
	dds_qset_userdata(qos, user_data, (size_t)n);
	return writer ? dds_create_writer(participant, topic, qos, NULL) :
			dds_create_reader(participant, topic, qos, NULL);
}

int cc_open(struct cc_endpoints *ep, int domain, enum cc_side side, char *err,
	size_t err_size)
{
	bool tracer = side == CC_TRACER;

	ep->participant = join_or_create(ep, domain);
	if (ep->participant < 0) {
		snprintf(err, err_size, "cannot join DDS domain %d: %s", domain,
			dds_strretcode(ep->participant));
		ep->participant = 0;
		cc_close(ep);
		return -1;
	}
	dds_qos_t *qos = dds_create_qos();
	dds_qset_reliability(qos, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
	dds_qset_history(qos, DDS_HISTORY_KEEP_LAST, 1);
	dds_qset_durability(qos, DDS_DURABILITY_VOLATILE);
	ep->start = endpoint(ep->participant, "rt/caret/start_record",
		&caret_msgs_msg_dds__Start__desc, TYPE_HASH_START, !tracer, qos);
	ep->end = endpoint(ep->participant, "rt/caret/end_record",
		&caret_msgs_msg_dds__End__desc, TYPE_HASH_END, !tracer, qos);
	/* Status has no key: with every tracer writing it, a reader keeping one
	 * sample would lose all but the last. History depth is the reader's
	 * own business (it does not take part in matching). */
	if (!tracer)
		dds_qset_history(qos, DDS_HISTORY_KEEP_LAST, 1024);
	ep->status = endpoint(ep->participant, "rt/caret/status",
		&caret_msgs_msg_dds__Status__desc, TYPE_HASH_STATUS, tracer, qos);
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
	if (ep->domain > 0)
		dds_delete(ep->domain);
	ep->participant = ep->domain = 0;
}

bool cc_alive(const struct cc_endpoints *ep)
{
	dds_domainid_t id;
	return ep->participant > 0 && dds_get_domainid(ep->participant, &id) == DDS_RETCODE_OK;
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
