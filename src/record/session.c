/* session.c - see session.h. */
#define _GNU_SOURCE
#include "session.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lttng/lttng.h>

#include "clock.h"
#include "schema.h"
#include "trace_dir.h"

/* Runtime events in one channel, initialization events in another: a
 * packet of the first never holds what the architecture needs, so the
 * analyzer can skip packets outside a time window unread. */
#define CHANNEL_NAME "caret"
#define INIT_CHANNEL_NAME "caret_init"
#define CARET_PREFIX "ros2_caret:"
#define DEFAULT_SUBBUF_SIZE (4u << 20)
#define DEFAULT_NUM_SUBBUF 8u

struct cr_session {
	char name[LTTNG_NAME_MAX];
	char output_dir[PATH_MAX];
	struct lttng_handle *handle; /* user-space domain of this session */
	pid_t daemon;                /* the session daemon that holds it; 0 unknown */
};

/* The pid the session daemon wrote in its run directory (root's, else
 * the user's under LTTNG_HOME or HOME); 0 when unknown. */
static pid_t daemon_pid(void)
{
	char path[PATH_MAX];
	const char *home = getenv("LTTNG_HOME");
	if (geteuid() == 0)
		snprintf(path, sizeof path, "/var/run/lttng/lttng-sessiond.pid");
	else if ((home && *home) || ((home = getenv("HOME")) && *home))
		snprintf(path, sizeof path, "%s/.lttng/lttng-sessiond.pid", home);
	else
		return 0;
	FILE *f = fopen(path, "re");
	long pid = 0;
	if (f) {
		if (fscanf(f, "%ld", &pid) != 1)
			pid = 0;
		fclose(f);
	}
	return pid > 0 && pid <= INT_MAX ? (pid_t)pid : 0;
}

/*
 * Events are enabled by name, from the schema: LTTng 2.13's session daemon
 * dies listing a rule with exclusions (`lttng list SESSION`), so the
 * channels cannot be split by globs with exclusions. Events of the
 * providers that caret-c does not know are not recorded.
 *
 * The light set: of ros2, the runtime events below only. The ros2
 * initialization and executor events are left out because the caret
 * tracer emits every initialization event again as a ros2_caret event
 * (with init_timestamp), so nothing the analyzer needs is lost and the
 * trace is smaller.
 */
static const char *const light_ros2_events[] = {
	"ros2:callback_start",
	"ros2:callback_end",
	"ros2:rclcpp_publish",
	"ros2:rcl_publish",
	"ros2:rclcpp_intra_publish",
	"ros2:message_construct",
	"ros2:dispatch_subscription_callback",
	"ros2:dispatch_intra_process_subscription_callback",
	"ros2:rmw_take",
};

static const struct {
	enum lttng_event_context_type type;
	const char *name; /* as `lttng add-context` names it */
} contexts[] = {
	{ LTTNG_EVENT_CONTEXT_VPID, "vpid" },
	{ LTTNG_EVENT_CONTEXT_VTID, "vtid" },
	{ LTTNG_EVENT_CONTEXT_PROCNAME, "procname" },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void set_err(char *err, size_t err_size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t err_size, const char *fmt, ...)
{
	if (!err || err_size == 0)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, err_size, fmt, ap);
	va_end(ap);
}

/* lttng_strerror() wants the negative form; some calls return the enum. */
static const char *why(int code)
{
	return lttng_strerror(code < 0 ? code : -code);
}

static bool is_power_of_two(uint64_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

static int check_options(const struct cr_session_options *o, char *err, size_t err_size)
{
	if (!o || !o->name || !*o->name) {
		set_err(err, err_size, "no session name given");
		return -1;
	}
	if (strlen(o->name) >= LTTNG_NAME_MAX) {
		set_err(err, err_size, "session name too long (max %d bytes)", LTTNG_NAME_MAX - 1);
		return -1;
	}
	if (o->url)
		return strlen(o->url) < PATH_MAX ? 0 : -1;
	if (!o->output_dir || o->output_dir[0] != '/') {
		set_err(err, err_size, "output directory must be an absolute path");
		return -1;
	}
	if (strlen(o->output_dir) >= PATH_MAX) {
		set_err(err, err_size, "output directory path too long");
		return -1;
	}
	if (o->subbuf_size && !is_power_of_two(o->subbuf_size)) {
		set_err(err, err_size, "sub-buffer size %llu is not a power of two",
			(unsigned long long)o->subbuf_size);
		return -1;
	}
	if (o->num_subbuf && !is_power_of_two(o->num_subbuf)) {
		set_err(err, err_size, "sub-buffer count %llu is not a power of two",
			(unsigned long long)o->num_subbuf);
		return -1;
	}
	return 0;
}

static void ust_domain(struct lttng_domain *d)
{
	memset(d, 0, sizeof *d);
	d->type = LTTNG_DOMAIN_UST;
	/* Per-UID: buffers outlive short processes and are shared, so memory
	 * does not grow with the number of ROS 2 processes. */
	d->buf_type = LTTNG_BUFFER_PER_UID;
}

static int enable_channel(struct cr_session *s, const struct cr_session_options *o,
			  const char *name, char *err, size_t err_size)
{
	struct lttng_domain domain;
	ust_domain(&domain);
	struct lttng_channel *chan = lttng_channel_create(&domain);
	if (!chan) {
		set_err(err, err_size, "cannot create channel: out of memory");
		return -1;
	}
	snprintf(chan->name, sizeof chan->name, "%s", name);
	/* discard mode: old data is never overwritten, but in a flight
	 * recorder, where only the latest matters */
	chan->attr.overwrite = o->snapshot;
	chan->attr.subbuf_size = o->subbuf_size ? o->subbuf_size : DEFAULT_SUBBUF_SIZE;
	chan->attr.num_subbuf = o->num_subbuf ? o->num_subbuf : DEFAULT_NUM_SUBBUF;

	int ret = 0;
	if (o->blocking)
		ret = lttng_channel_set_blocking_timeout(chan, -1); /* -1: wait forever */
	if (ret == 0)
		ret = lttng_enable_channel(s->handle, chan);
	lttng_channel_destroy(chan);
	if (ret < 0) {
		set_err(err, err_size, "cannot enable channel %s: %s", name, why(ret));
		return -1;
	}
	return 0;
}

static int add_contexts(struct cr_session *s, const char *channel, char *err, size_t err_size)
{
	for (size_t i = 0; i < COUNT(contexts); i++) {
		struct lttng_event_context ctx;
		memset(&ctx, 0, sizeof ctx);
		ctx.ctx = contexts[i].type;
		int ret = lttng_add_context(s->handle, &ctx, NULL, channel);
		if (ret < 0) {
			set_err(err, err_size, "cannot add context %s: %s", contexts[i].name, why(ret));
			return -1;
		}
	}
	return 0;
}

static bool is_init(const struct cs_event *e)
{
	return !cs_role_is_runtime(e->role);
}

/* Enables the event name in channel. */
static int enable_rule(struct cr_session *s, const char *name, const char *channel,
		       char *err, size_t err_size)
{
	struct lttng_event *ev = lttng_event_create();
	if (!ev) {
		set_err(err, err_size, "cannot create event: out of memory");
		return -1;
	}
	ev->type = LTTNG_EVENT_TRACEPOINT;
	ev->loglevel_type = LTTNG_EVENT_LOGLEVEL_ALL;
	ev->loglevel = -1;
	snprintf(ev->name, sizeof ev->name, "%s", name);
	int ret = lttng_enable_event_with_exclusions(s->handle, ev, channel, NULL, 0, NULL);
	lttng_event_destroy(ev);
	if (ret < 0) {
		set_err(err, err_size, "cannot enable event %s in channel %s: %s", name, channel,
			why(ret));
		return -1;
	}
	return 0;
}

static bool in_light_set(const struct cs_event *e)
{
	if (!strcmp(e->provider, "ros2_caret"))
		return true;
	for (size_t i = 0; i < COUNT(light_ros2_events); i++)
		if (!strcmp(e->full_name, light_ros2_events[i]))
			return true;
	return false;
}

/* Every event of the schema (the light set's only when light), each in
 * its channel. */
static int enable_events(struct cr_session *s, bool light, char *err, size_t err_size)
{
	int rc = 0;
	for (size_t i = 0; i < CS_EVENT_COUNT && rc == 0; i++) {
		const struct cs_event *e = &cs_events[i];
		if (!light || in_light_set(e))
			rc = enable_rule(s, e->full_name, is_init(e) ? INIT_CHANNEL_NAME :
				CHANNEL_NAME, err, err_size);
	}
	return rc;
}

const char *cr_session_event_name(bool light, size_t i)
{
	for (size_t k = 0; k < CS_EVENT_COUNT; k++)
		if ((!light || in_light_set(&cs_events[k])) && i-- == 0)
			return cs_events[k].full_name;
	return NULL;
}

const char *cr_session_context_name(size_t i)
{
	return i < COUNT(contexts) ? contexts[i].name : NULL;
}

static int track_vgid(struct cr_session *s, int vgid, char *err, size_t err_size)
{
	struct lttng_process_attr_tracker_handle *tracker = NULL;
	enum lttng_error_code code = lttng_session_get_tracker_handle(
		s->name, LTTNG_DOMAIN_UST, LTTNG_PROCESS_ATTR_VIRTUAL_GROUP_ID, &tracker);
	if (code != LTTNG_OK) {
		set_err(err, err_size, "cannot get the vgid tracker: %s", why(code));
		return -1;
	}
	/* A new tracker includes everything; switch it to an explicit set. */
	enum lttng_process_attr_tracker_handle_status st =
		lttng_process_attr_tracker_handle_set_tracking_policy(
			tracker, LTTNG_TRACKING_POLICY_INCLUDE_SET);
	if (st == LTTNG_PROCESS_ATTR_TRACKER_HANDLE_STATUS_OK)
		st = lttng_process_attr_virtual_group_id_tracker_handle_add_gid(tracker,
										(gid_t)vgid);
	lttng_process_attr_tracker_handle_destroy(tracker);
	if (st != LTTNG_PROCESS_ATTR_TRACKER_HANDLE_STATUS_OK &&
	    st != LTTNG_PROCESS_ATTR_TRACKER_HANDLE_STATUS_EXISTS) {
		set_err(err, err_size, "cannot track vgid %d (tracker status %d)", vgid, (int)st);
		return -1;
	}
	return 0;
}

static void free_session(struct cr_session *s)
{
	if (!s)
		return;
	if (s->handle)
		lttng_destroy_handle(s->handle);
	free(s);
}

struct cr_session *cr_session_create(const struct cr_session_options *o,
				     char *err, size_t err_size)
{
	if (check_options(o, err, err_size) < 0)
		return NULL;
	if (!lttng_session_daemon_alive()) {
		set_err(err, err_size, "no LTTng session daemon is running");
		return NULL;
	}
	struct cr_session *s = calloc(1, sizeof *s);
	if (!s) {
		set_err(err, err_size, "cannot create session: out of memory");
		return NULL;
	}
	snprintf(s->name, sizeof s->name, "%s", o->name);
	snprintf(s->output_dir, sizeof s->output_dir, "%s", o->output_dir);

	int ret = o->snapshot ? lttng_create_session_snapshot(s->name, NULL) :
		lttng_create_session(s->name, o->url ? o->url : s->output_dir);
	if (ret < 0) {
		/* Nothing of ours exists yet: never destroy a namesake. */
		if (ret == -LTTNG_ERR_EXIST_SESS)
			set_err(err, err_size, "a session named %s already exists", s->name);
		else if (o->url)
			set_err(err, err_size, "cannot stream to the relay daemon at %s: %s (is lttng-relayd running "
				"there and reachable?)", o->url, why(ret));
		else
			set_err(err, err_size, "cannot create session: %s", why(ret));
		free(s);
		return NULL;
	}

	s->daemon = daemon_pid();
	struct lttng_domain domain;
	ust_domain(&domain);
	s->handle = lttng_create_handle(s->name, &domain);
	if (!s->handle)
		set_err(err, err_size, "cannot create session handle: out of memory");
	if (!s->handle || enable_channel(s, o, CHANNEL_NAME, err, err_size) < 0 ||
	    enable_channel(s, o, INIT_CHANNEL_NAME, err, err_size) < 0 ||
	    add_contexts(s, CHANNEL_NAME, err, err_size) < 0 ||
	    add_contexts(s, INIT_CHANNEL_NAME, err, err_size) < 0 ||
	    enable_events(s, o->light, err, err_size) < 0 ||
	    (o->track_vgid >= 0 && track_vgid(s, o->track_vgid, err, err_size) < 0)) {
		if (o->url) { /* the channels are where the relay daemon is first reached */
			char why_not[512];
			snprintf(why_not, sizeof why_not, "%s", err);
			set_err(err, err_size, "cannot stream to the relay daemon at %s: %s (is lttng-relayd running "
				"there and reachable?)", o->url, why_not);
		}
		lttng_destroy_session(s->name);
		free_session(s);
		return NULL;
	}
	return s;
}

int cr_session_start(struct cr_session *s, char *err, size_t err_size)
{
	if (!s) {
		set_err(err, err_size, "no session");
		return -1;
	}
	int ret = lttng_start_tracing(s->name);
	if (ret < 0) {
		set_err(err, err_size, "cannot start session %s: %s", s->name, why(ret));
		return -1;
	}
	return 0;
}

void cr_session_stop(struct cr_session *s)
{
	if (s)
		lttng_stop_tracing(s->name);
}

int cr_session_stop_and_destroy(struct cr_session *s, char *err, size_t err_size)
{
	if (!s)
		return 0;
	int rc = 0;
	/* Never started, already stopped or destroyed by someone else: fine. */
	int ret = lttng_stop_tracing(s->name);
	if (ret < 0 && ret != -LTTNG_ERR_TRACE_ALREADY_STOPPED &&
	    ret != -LTTNG_ERR_SESS_NOT_FOUND) {
		set_err(err, err_size, "cannot stop session %s: %s", s->name, why(ret));
		rc = -1;
	}
	/* Destroy even when stop failed: it stops and flushes too. */
	ret = lttng_destroy_session(s->name);
	if (ret < 0 && ret != -LTTNG_ERR_SESS_NOT_FOUND) {
		if (rc == 0)
			set_err(err, err_size, "cannot destroy session %s: %s", s->name, why(ret));
		rc = -1;
	}
	free_session(s);
	return rc;
}

int cr_session_rotate(struct cr_session *s, char *chunk, size_t chunk_size,
		      char *err, size_t err_size)
{
	struct lttng_rotation_handle *h = NULL;
	int ret = lttng_rotate_session(s->name, NULL, &h);
	if (ret < 0) {
		set_err(err, err_size, "cannot rotate session %s: %s", s->name, why(ret));
		return -1;
	}
	enum lttng_rotation_state state = LTTNG_ROTATION_STATE_ONGOING;
	/* the consumer flushes every stream first: tens of ms; give up after
	 * 10 s (each poll is a round trip to the session daemon) */
	for (int i = 0; i < 500 && state == LTTNG_ROTATION_STATE_ONGOING; i++) {
		if (lttng_rotation_handle_get_state(h, &state) != LTTNG_ROTATION_STATUS_OK)
			state = LTTNG_ROTATION_STATE_ERROR;
		if (state == LTTNG_ROTATION_STATE_ONGOING)
			usleep(20000);
	}
	const struct lttng_trace_archive_location *where = NULL;
	const char *path = NULL;
	int rc = -1;
	if (state != LTTNG_ROTATION_STATE_COMPLETED)
		set_err(err, err_size, "rotation of session %s %s", s->name,
			state == LTTNG_ROTATION_STATE_ONGOING ? "did not end in 10 s" : "failed");
	else if (lttng_rotation_handle_get_archive_location(h, &where) !=
		 LTTNG_ROTATION_STATUS_OK || !where)
		set_err(err, err_size, "session %s: rotated chunk has no location", s->name);
	else if (lttng_trace_archive_location_get_type(where) ==
		 LTTNG_TRACE_ARCHIVE_LOCATION_TYPE_LOCAL &&
		 lttng_trace_archive_location_local_get_absolute_path(where, &path) ==
		 LTTNG_TRACE_ARCHIVE_LOCATION_STATUS_OK) {
		snprintf(chunk, chunk_size, "%s", path);
		rc = 0;
	} else {
		/* a relayed chunk: where the relay daemon wrote it is its own */
		snprintf(chunk, chunk_size, "%s", "");
		rc = 0;
	}
	lttng_rotation_handle_destroy(h);
	return rc;
}

int cr_session_snapshot(struct cr_session *s, const char *dir, char *err, size_t err_size)
{
	struct lttng_snapshot_output *out = lttng_snapshot_output_create();
	int ret = out ? lttng_snapshot_output_set_local_path(dir, out) : -LTTNG_ERR_NOMEM;
	if (ret >= 0)
		ret = lttng_snapshot_record(s->name, out, 1);
	lttng_snapshot_output_destroy(out);
	if (ret < 0) {
		set_err(err, err_size, "cannot write a snapshot of session %s to %s: %s", s->name,
			dir, why(ret));
		return -1;
	}
	return 0;
}

int64_t cr_session_discarded(const struct cr_session *s)
{
	if (!s || !s->handle)
		return -1;
	struct lttng_channel *channels = NULL;
	int n = lttng_list_channels(s->handle, &channels);
	if (n < 0)
		return -1;
	int64_t total = -1;
	for (int i = 0; i < n; i++) {
		uint64_t count;
		if ((strcmp(channels[i].name, CHANNEL_NAME) != 0 &&
		     strcmp(channels[i].name, INIT_CHANNEL_NAME) != 0) ||
		    lttng_channel_get_discarded_event_count(&channels[i], &count) < 0)
			continue;
		total = (total < 0 ? 0 : total) + (int64_t)count;
	}
	free(channels);
	return total;
}

uint64_t cr_session_bytes_on_disk(const struct cr_session *s)
{
	return s ? cr_dir_bytes(s->output_dir) : 0;
}

/*
 * True when the event rule name selects ros2_caret events: "ros2_caret:*",
 * "ros2_caret:x", and also the wider globs "*", "ros2*", "ros2_caret*"
 * (lttng enable-event -u -a records caret events just as well).
 */
static bool rule_covers_caret(const char *name)
{
	size_t prefix_len = strlen(CARET_PREFIX);
	if (strncmp(name, CARET_PREFIX, prefix_len) == 0)
		return true;
	const char *star = strchr(name, '*');
	if (!star || star[1] != '\0' || (size_t)(star - name) > prefix_len)
		return false;
	return strncmp(name, CARET_PREFIX, (size_t)(star - name)) == 0;
}

/* 1 / 0 for one session; -1 only when the session daemon is gone. */
static int session_records_caret(const char *session_name)
{
	struct lttng_domain domain;
	ust_domain(&domain);
	struct lttng_handle *h = lttng_create_handle(session_name, &domain);
	if (!h)
		return 0;
	struct lttng_channel *channels = NULL;
	int n = lttng_list_channels(h, &channels);
	int found = n == -LTTNG_ERR_NO_SESSIOND ? -1 : 0;
	for (int i = 0; i < n && found == 0; i++) {
		if (!channels[i].enabled)
			continue;
		struct lttng_event *events = NULL;
		int m = lttng_list_events(h, channels[i].name, &events);
		if (m == -LTTNG_ERR_NO_SESSIOND)
			found = -1;
		for (int j = 0; j < m && found == 0; j++)
			if (events[j].enabled == 1 && rule_covers_caret(events[j].name))
				found = 1;
		free(events);
	}
	free(channels);
	lttng_destroy_handle(h);
	return found;
}

/* Does session `name` record processes of virtual group `vgid`? (Its
 * vgid tracker includes everyone, or that group.) Unknown counts as yes. */
static bool session_tracks_vgid(const char *name, int vgid)
{
	struct lttng_process_attr_tracker_handle *h = NULL;
	enum lttng_tracking_policy policy;
	const struct lttng_process_attr_values *values = NULL;
	bool tracks = true;
	unsigned int count = 0;

	if (lttng_session_get_tracker_handle(name, LTTNG_DOMAIN_UST,
		    LTTNG_PROCESS_ATTR_VIRTUAL_GROUP_ID, &h) != LTTNG_OK)
		return true;
	if (lttng_process_attr_tracker_handle_get_tracking_policy(h, &policy) ==
		    LTTNG_PROCESS_ATTR_TRACKER_HANDLE_STATUS_OK) {
		if (policy == LTTNG_TRACKING_POLICY_EXCLUDE_ALL) {
			tracks = false;
		} else if (policy == LTTNG_TRACKING_POLICY_INCLUDE_SET &&
			   lttng_process_attr_tracker_handle_get_inclusion_set(h, &values) ==
				   LTTNG_PROCESS_ATTR_TRACKER_HANDLE_STATUS_OK &&
			   lttng_process_attr_values_get_count(values, &count) ==
				   LTTNG_PROCESS_ATTR_VALUES_STATUS_OK) {
			tracks = false;
			for (unsigned int i = 0; i < count; i++) {
				gid_t gid;
				if (lttng_process_attr_values_get_gid_at_index(values, i, &gid) ==
					    LTTNG_PROCESS_ATTR_VALUES_STATUS_OK && (int)gid == vgid)
					tracks = true;
			}
		}
	}
	lttng_process_attr_tracker_handle_destroy(h);
	return tracks;
}

int cr_active_session_records_caret(int track_vgid, char *err, size_t err_size)
{
	if (!lttng_session_daemon_alive()) {
		set_err(err, err_size, "no LTTng session daemon is running");
		return -1;
	}
	struct lttng_session *sessions = NULL;
	int n = lttng_list_sessions(&sessions);
	if (n < 0) {
		set_err(err, err_size, "cannot list sessions: %s", why(n));
		return -1;
	}
	int found = 0;
	for (int i = 0; i < n && found == 0; i++) {
		if (!sessions[i].enabled) /* created but not started */
			continue;
		/* Tests run side by side, each session tracking its own group. */
		if (track_vgid >= 0 && !session_tracks_vgid(sessions[i].name, track_vgid))
			continue;
		found = session_records_caret(sessions[i].name);
		if (found < 0)
			set_err(err, err_size, "lost the LTTng session daemon while listing sessions");
		else if (found)
			set_err(err, err_size, "%s", sessions[i].name); /* which one, to say */
	}
	free(sessions);
	return found;
}

int cr_sessiond_alive(void)
{
	return lttng_session_daemon_alive() == 1 ? 1 : 0;
}

/* Its state by its name, as cr_session_state but for a replaced daemon. */
static int state_of(const char *name)
{
	struct lttng_session *sessions = NULL;
	int n = lttng_list_sessions(&sessions);
	for (int tries = 1; n < 0 && tries < 3; tries++) {
		if (lttng_session_daemon_alive() != 1)
			return CR_SESSION_NO_DAEMON;
		caret_sleep_ms(100);
		n = lttng_list_sessions(&sessions);
	}
	if (n < 0)
		return CR_SESSION_STARTED;
	int state = CR_SESSION_ABSENT;
	for (int i = 0; i < n && state == CR_SESSION_ABSENT; i++)
		if (!strcmp(sessions[i].name, name))
			state = sessions[i].enabled ? CR_SESSION_STARTED : CR_SESSION_STOPPED;
	free(sessions);
	return state;
}

int cr_session_state(const struct cr_session *s)
{
	if (!s)
		return CR_SESSION_ABSENT;
	int state = state_of(s->name);
	/* gone with the daemon that held it: another one answers now */
	if (state == CR_SESSION_ABSENT && s->daemon && daemon_pid() != s->daemon)
		return CR_SESSION_REPLACED;
	return state;
}

int cr_session_destroy_named(const char *name, char *err, size_t err_size)
{
	if (!name || !*name || state_of(name) < CR_SESSION_STOPPED) /* none, or no daemon */
		return 0;
	lttng_stop_tracing(name);
	int ret = lttng_destroy_session(name);
	if (ret < 0 && ret != -LTTNG_ERR_SESS_NOT_FOUND) {
		set_err(err, err_size, "cannot destroy session %s: %s", name, why(ret));
		return -1;
	}
	return 1;
}

/* liblttng-ctl prints its internal errors on the caller's stderr unless
 * its lttng_opt_quiet is set (what the lttng client's -q sets): exported
 * by liblttng-ctl but declared in none of its headers, so weak: where a
 * liblttng-ctl has none, nothing is done. */
extern int lttng_opt_quiet __attribute__((weak));

void cr_session_quiet(void)
{
	if (&lttng_opt_quiet)
		lttng_opt_quiet = 1;
}
