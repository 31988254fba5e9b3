/*
 * metrics_http.h - `caret live --metrics HOST:PORT`: an HTTP/1.1 server
 * on its own thread answering GET /metrics with the latest text the
 * looks handed it (Prometheus's, or OpenMetrics' when the scraper's
 * Accept asks for application/openmetrics-text), 404 elsewhere. The
 * looks never wait on a scraper: they swap the text in under a lock the
 * server holds only to copy it.
 */
#ifndef CL_METRICS_HTTP_H
#define CL_METRICS_HTTP_H

#include <stdbool.h>
#include <stddef.h>

struct live_metrics;

/* Listens on host:port (a name or address; [v6] without brackets) and
 * starts serving an empty text; NULL with why ("Address already in use")
 * when it cannot. */
struct live_metrics *live_metrics_listen(const char *host, const char *port, char *why,
	size_t why_size);
/* The texts served from now on (both malloc'd: the server owns them). */
void live_metrics_publish(struct live_metrics *m, char *prometheus, size_t prometheus_len,
	char *openmetrics, size_t openmetrics_len);
/* Stops the server, closes its socket, frees it (NULL: nothing). */
void live_metrics_stop(struct live_metrics *m);

/* An HTTP request's head (up to the blank line) into what to answer:
 * whether it asks for OpenMetrics, and the status (200, 404, 405, 400). */
int live_metrics_route(const char *head, bool *openmetrics);

#endif
