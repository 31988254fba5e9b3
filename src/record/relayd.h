/*
 * relayd.h - is the relay daemon of --relayd HOST[:CTRL[:DATA]] there?
 * Asked before a session is made, so that the common failure (nothing
 * listens there) is said in one line naming the address and the likely
 * cause, with no session to undo; the session daemon, on the same host,
 * connects to the same address.
 */
#ifndef CR_RELAYD_H
#define CR_RELAYD_H

#include <stddef.h>

/* LTTng's ports when HOST alone is given. */
#define CR_RELAYD_CONTROL_PORT 5342
#define CR_RELAYD_DATA_PORT 5343

/* 0 when a TCP connection to both ports of address (HOST, HOST:CTRL,
 * HOST:CTRL:DATA, [IPv6]:CTRL:DATA) is accepted within 3 s; -1 with
 * "lttng-relayd at HOST port P: <cause>" in err otherwise (an unknown
 * host, nothing listening, no answer, a malformed address). */
int cr_relayd_reachable(const char *address, char *err, size_t err_size);

#endif
