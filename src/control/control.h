/*
 * control.h - the caret control topics over DDS, shared by the tracer's
 * control thread and `caret record` (../shared/reference/control-plane.md):
 * rt/caret/start_record (Start_), rt/caret/end_record (End_),
 * rt/caret/status (Status_), all reliable, keep-last 1, volatile.
 */
#ifndef CC_CONTROL_H
#define CC_CONTROL_H

#include <stdbool.h>
#include <stddef.h>

#include <dds/dds.h>

#include "caret_msgs.h"

typedef caret_msgs_msg_dds__Start_ cc_start;
typedef caret_msgs_msg_dds__End_ cc_end;
typedef caret_msgs_msg_dds__Status_ cc_status;

/* A Status node_names entry that is a tracer's warning, not a node name
 * (node names begin with '/'). */
#define CC_STATUS_WARNING "warning: "

/* caret_msgs Status_.status values. */
enum cc_state { CC_UNINITIALIZED = 0, CC_WAIT = 1, CC_PREPARE = 2, CC_RECORD = 3 };

enum cc_side {
	CC_TRACER,   /* reads Start and End, writes Status */
	CC_RECORDER, /* writes Start and End, reads Status */
};

struct cc_endpoints {
	dds_entity_t domain; /* ours, or 0: the participant joined an existing one */
	dds_entity_t participant;
	dds_entity_t start, end, status; /* reader or writer, by side */
};

/* The DDS domain of ROS_DOMAIN_ID (0 when unset or invalid). */
int cc_domain_from_env(void);

/* ROS 2 discovery ranges (ROS_AUTOMATIC_DISCOVERY_RANGE, Jazzy). */
enum cc_discovery { CC_DISCOVERY_OFF, CC_DISCOVERY_LOCALHOST, CC_DISCOVERY_SUBNET,
	CC_DISCOVERY_SYSTEM_DEFAULT };

/* The discovery range of the environment, read as rcl reads it: Jazzy's
 * ROS_AUTOMATIC_DISCOVERY_RANGE (unset: SUBNET; an unknown value:
 * LOCALHOST), overridden by ROS_LOCALHOST_ONLY=1 (Humble's, and Jazzy's
 * deprecated form). */
enum cc_discovery cc_discovery_from_env(void);

/* The Cyclone DDS configuration of a domain that discovers the ROS 2
 * processes of this environment, Humble's or Jazzy's, as rmw_cyclonedds_cpp
 * configures theirs: LOCALHOST without multicast, with localhost and
 * ROS_STATIC_PEERS as peers, on 127.0.0.1 (Humble's rmw pins it) and, with
 * second_interface, the interface Cyclone would pick (Jazzy's pins none)
 * when CYCLONEDDS_URI does not choose; SUBNET with the static peers;
 * participant
 * indexes allocated as Jazzy's rmw does (Humble's localhost processes get
 * them too, multicast being off); then CYCLONEDDS_URI, which has the last
 * word. A new string (free it), or NULL when out of memory. */
char *cc_domain_config(bool second_interface);

/* Opens a participant on domain and the three endpoints of side. When this
 * process has no participant in that domain yet, the domain is created
 * first with cc_domain_config (so the control topics follow the ROS
 * processes' discovery settings); otherwise the participant joins it as
 * configured. Returns 0, or -1 with the reason in err. */
int cc_open(struct cc_endpoints *ep, int domain, enum cc_side side, char *err,
	size_t err_size);
/* Deletes the participant and everything in it (and the domain, if ours). */
void cc_close(struct cc_endpoints *ep);
/* The participant still exists (a domain deleted by its creator takes every
 * participant in it along). */
bool cc_alive(const struct cc_endpoints *ep);

const char *cc_state_name(int state);

#endif
