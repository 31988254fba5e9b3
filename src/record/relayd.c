/* relayd.c - see relayd.h. */
#define _GNU_SOURCE
#include "relayd.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define ANSWER_MS 3000

struct address {
	char host[256];
	char ports[2][8]; /* control, data */
};

/* One ":PORT" of the address at *s (moved past it) into port; false on a
 * port that is not 1 to 65535. */
static bool take_port(const char **s, char port[8])
{
	char *end;
	if (**s != ':')
		return true;
	long p = strtol(++*s, &end, 10);
	if (end == *s || p < 1 || p > 65535 || (*end && *end != ':'))
		return false;
	snprintf(port, 8, "%ld", p);
	*s = end;
	return true;
}

/* HOST[:CTRL[:DATA]], HOST as [IPv6] too; false when malformed. */
static bool parse(const char *text, struct address *a)
{
	const char *rest;
	size_t len;
	if (text[0] == '[') {
		const char *close = strchr(text, ']');
		if (!close)
			return false;
		len = (size_t)(close - text - 1);
		text++;
		rest = close + 1;
	} else {
		len = strcspn(text, ":");
		rest = text + len;
	}
	if (!len || len >= sizeof a->host)
		return false;
	memcpy(a->host, text, len);
	a->host[len] = '\0';
	snprintf(a->ports[0], sizeof a->ports[0], "%d", CR_RELAYD_CONTROL_PORT);
	snprintf(a->ports[1], sizeof a->ports[1], "%d", CR_RELAYD_DATA_PORT);
	return take_port(&rest, a->ports[0]) && take_port(&rest, a->ports[1]) && !*rest;
}

/* One connection attempt to ai within ANSWER_MS: 0, or the errno. */
static int connect_one(const struct addrinfo *ai)
{
	int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
		ai->ai_protocol);
	if (fd < 0)
		return errno;
	int error = 0;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
		error = errno;
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		if (error == EINPROGRESS) {
			socklen_t len = sizeof error;
			int ready = poll(&p, 1, ANSWER_MS);
			if (ready == 0)
				error = ETIMEDOUT;
			else if (ready < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len) != 0)
				error = errno;
		}
	}
	close(fd);
	return error;
}

/* host:port answering: 0, or -1 with the cause in why. */
static int answers(const char *host, const char *port, char *why, size_t why_size)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *found = NULL;
	int rc = getaddrinfo(host, port, &hints, &found);
	if (rc != 0) {
		snprintf(why, why_size, "the host is unknown (%s)", gai_strerror(rc));
		return -1;
	}
	int error = EHOSTUNREACH;
	for (const struct addrinfo *ai = found; ai && error; ai = ai->ai_next)
		error = connect_one(ai);
	freeaddrinfo(found);
	if (!error)
		return 0;
	if (error == ECONNREFUSED)
		snprintf(why, why_size, "nothing listens there (connection refused): is "
			"lttng-relayd running on %s, on that port?", host);
	else if (error == ETIMEDOUT)
		snprintf(why, why_size, "no answer within %d s (the host down, or a firewall "
			"between)", ANSWER_MS / 1000);
	else
		snprintf(why, why_size, "%s", strerror(error));
	return -1;
}

int cr_relayd_reachable(const char *address, char *err, size_t err_size)
{
	struct address a;
	char why[384];
	if (!address || !parse(address, &a)) {
		snprintf(err, err_size, "--relayd %s: not HOST[:CTRL[:DATA]] (ports 1 to 65535)",
			address ? address : "(none)");
		return -1;
	}
	for (int i = 0; i < 2; i++)
		if (answers(a.host, a.ports[i], why, sizeof why) != 0) {
			snprintf(err, err_size, "cannot stream to the relay daemon at %s port %s (%s): "
				"%s", a.host, a.ports[i], i ? "data" : "control", why);
			return -1;
		}
	return 0;
}
