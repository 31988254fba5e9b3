/* metrics_http.c - see metrics_http.h. */
#define _GNU_SOURCE
#include "metrics_http.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* A request's head larger than this is refused (400): a scraper's is a
 * few hundred bytes. */
#define HEAD_MAX 8192
/* A client that sends its request or takes the answer slower than this is
 * dropped: the next scrape is not held up for long. */
#define CLIENT_TIMEOUT_MS 2000

struct live_metrics {
	int listener;
	int wake[2];          /* written to stop the thread */
	pthread_t thread;
	pthread_mutex_t lock; /* over the texts */
	char *text[2];        /* [0] Prometheus, [1] OpenMetrics */
	size_t len[2];
};

/* Whether a header line is named `name` (lower case, with its colon):
 * field names are case-insensitive. */
static bool header_named(const char *line, const char *name)
{
	for (; *name; line++, name++)
		if (tolower((unsigned char)*line) != *name)
			return false;
	return true;
}

/* Whether the head's Accept header names OpenMetrics. */
static bool accepts_openmetrics(const char *head)
{
	for (const char *line = strstr(head, "\r\n"); line; line = strstr(line + 2, "\r\n")) {
		if (!header_named(line + 2, "accept:"))
			continue;
		const char *end = strstr(line + 2, "\r\n");
		size_t n = end ? (size_t)(end - line - 2) : strlen(line + 2);
		return memmem(line + 2, n, "application/openmetrics-text", 28) != NULL;
	}
	return false;
}

int live_metrics_route(const char *head, bool *openmetrics)
{
	char method[16], target[1024], version[16];
	*openmetrics = false;
	if (sscanf(head, "%15s %1023s %15s", method, target, version) != 3 ||
	    strncmp(version, "HTTP/1.", 7))
		return 400;
	target[strcspn(target, "?")] = '\0'; /* a query string changes nothing */
	if (strcmp(target, "/metrics"))
		return 404;
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return 405;
	*openmetrics = accepts_openmetrics(head);
	return 200;
}

/* Writes it all, or gives up at the timeout or an error. */
static bool send_all(int fd, const char *p, size_t n)
{
	while (n) {
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };
		if (poll(&pfd, 1, CLIENT_TIMEOUT_MS) <= 0)
			return false;
		ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		p += k;
		n -= (size_t)k;
	}
	return true;
}

/* The request's head, up to its blank line; false when it did not come
 * whole in time. */
static bool read_head(int fd, char *head)
{
	size_t n = 0;
	while (n < HEAD_MAX - 1) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		if (poll(&pfd, 1, CLIENT_TIMEOUT_MS) <= 0)
			return false;
		ssize_t k = recv(fd, head + n, HEAD_MAX - 1 - n, 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		n += (size_t)k;
		head[n] = '\0';
		if (strstr(head, "\r\n\r\n"))
			return true;
	}
	return false;
}

/* What each status says: its reason phrase, and its body (NULL: the
 * metrics). */
static const struct answer_kind {
	int status;
	const char *reason, *body;
} answer_kinds[] = {
	{ 200, "OK", NULL },
	{ 404, "Not Found", "not found: caret live serves /metrics\n" },
	{ 405, "Method Not Allowed", "caret live's /metrics takes GET or HEAD\n" },
	{ 400, "Bad Request", "bad request\n" }, /* the last: any other */
};

/* One connection: one request answered, then closed (Connection: close). */
static void answer(struct live_metrics *m, int fd)
{
	char *head = malloc(HEAD_MAX);
	if (!head)
		return;
	bool whole = read_head(fd, head), om = false;
	int status = whole ? live_metrics_route(head, &om) : 400;
	bool body_wanted = !whole || strncmp(head, "HEAD ", 5); /* HEAD: the header alone */
	free(head);
	const struct answer_kind *k = answer_kinds;
	while (k->status != status && k->status != 400)
		k++;
	char *body = NULL;
	size_t len = 0;
	if (!k->body) { /* a copy: the looks never wait on a slow client */
		pthread_mutex_lock(&m->lock);
		len = m->len[om];
		body = malloc(len + 1);
		if (body)
			memcpy(body, m->text[om], len);
		pthread_mutex_unlock(&m->lock);
	} else {
		len = strlen(k->body);
		body = strdup(k->body);
	}
	if (!body)
		return;
	char header[512];
	int n = snprintf(header, sizeof header, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\n"
		"Content-Length: %zu\r\n%sConnection: close\r\n\r\n", k->status, k->reason,
		k->body ? "text/plain; charset=utf-8" : om ?
		"application/openmetrics-text; version=1.0.0; charset=utf-8" :
		"text/plain; version=0.0.4; charset=utf-8", len,
		k->status == 405 ? "Allow: GET, HEAD\r\n" : "");
	if (send_all(fd, header, (size_t)n) && body_wanted)
		send_all(fd, body, len);
	free(body);
}

static void *serve(void *arg)
{
	struct live_metrics *m = arg;
	for (;;) {
		struct pollfd pfd[2] = { { .fd = m->listener, .events = POLLIN },
			{ .fd = m->wake[0], .events = POLLIN } };
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[1].revents)
			break;
		int fd = accept4(m->listener, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0) { /* the client went before it was taken, or out of files: */
			struct pollfd wake = { .fd = m->wake[0], .events = POLLIN };
			if (errno != ECONNABORTED && errno != EINTR && errno != EAGAIN)
				poll(&wake, 1, 100); /* a pause, not a spin on the waiting one */
			continue;
		}
		answer(m, fd);
		close(fd);
	}
	return NULL;
}

/* A socket listening on the first of host:port's addresses that takes
 * it; -1 with why. */
static int listen_on(const char *host, const char *port, char *why, size_t why_size)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
		.ai_flags = AI_PASSIVE | AI_NUMERICSERV }, *found;
	int e = getaddrinfo(host, port, &hints, &found);
	if (e) {
		snprintf(why, why_size, "%s", gai_strerror(e));
		return -1;
	}
	int fd = -1, err = 0;
	for (struct addrinfo *a = found; a && fd < 0; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
		int one = 1;
		/* a port left in TIME_WAIT by the last run is taken; one another
		 * server listens on is still refused */
		if (fd >= 0 && (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) ||
				bind(fd, a->ai_addr, a->ai_addrlen) || listen(fd, 16))) {
			err = errno;
			close(fd);
			fd = -1;
		} else if (fd < 0) {
			err = errno;
		}
	}
	freeaddrinfo(found);
	if (fd < 0)
		snprintf(why, why_size, "%s", strerror(err));
	return fd;
}

struct live_metrics *live_metrics_listen(const char *host, const char *port, char *why,
	size_t why_size)
{
	struct live_metrics *m = calloc(1, sizeof *m);
	if (!m) {
		snprintf(why, why_size, "out of memory");
		return NULL;
	}
	m->wake[0] = m->wake[1] = -1;
	m->text[0] = strdup("");
	m->text[1] = strdup("# EOF\n");
	m->len[1] = 6;
	if (!m->text[0] || !m->text[1] || pipe2(m->wake, O_CLOEXEC)) {
		snprintf(why, why_size, "%s", strerror(errno ? errno : ENOMEM));
		goto fail;
	}
	if ((m->listener = listen_on(host, port, why, why_size)) < 0)
		goto fail;
	pthread_mutex_init(&m->lock, NULL);
	/* the signals (Ctrl-C) go to the looks' thread, which ends the run */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	int e = pthread_create(&m->thread, NULL, serve, m);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		snprintf(why, why_size, "%s", strerror(e));
		close(m->listener);
		pthread_mutex_destroy(&m->lock);
		goto fail;
	}
	return m;
fail:
	for (int i = 0; i < 2; i++)
		if (m->wake[i] >= 0)
			close(m->wake[i]);
	free(m->text[0]);
	free(m->text[1]);
	free(m);
	return NULL;
}

void live_metrics_publish(struct live_metrics *m, char *prometheus, size_t prometheus_len,
	char *openmetrics, size_t openmetrics_len)
{
	pthread_mutex_lock(&m->lock);
	char *old[2] = { m->text[0], m->text[1] };
	m->text[0] = prometheus;
	m->len[0] = prometheus_len;
	m->text[1] = openmetrics;
	m->len[1] = openmetrics_len;
	pthread_mutex_unlock(&m->lock);
	free(old[0]);
	free(old[1]);
}

void live_metrics_stop(struct live_metrics *m)
{
	if (!m)
		return;
	ssize_t k;
	do
		k = write(m->wake[1], "x", 1);
	while (k < 0 && errno == EINTR);
	pthread_join(m->thread, NULL);
	close(m->listener);
	close(m->wake[0]);
	close(m->wake[1]);
	pthread_mutex_destroy(&m->lock);
	free(m->text[0]);
	free(m->text[1]);
	free(m);
}
