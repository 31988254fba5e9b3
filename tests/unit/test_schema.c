/*
 * test_schema - the schema table (src/schema/events.def) is consistent and
 * says exactly what ../shared/reference/tracepoints.md says: every event,
 * every field name, order and type. Renaming, removing or retyping a field
 * in the table fails here.
 */
#include "schema.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define MAX_REF_EVENTS 128

struct ref_event {
	char full_name[96];
	char fields[CS_MAX_FIELDS + 2][64]; /* "name:type" */
	size_t field_count;
};

static struct ref_event ref[MAX_REF_EVENTS];
static size_t ref_count;

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* Removes "(...)" and backquotes: the reference's remarks. */
static void strip_remarks(char *s)
{
	char *w = s;
	int depth = 0;

	for (char *r = s; *r; r++) {
		if (*r == '(')
			depth++;
		else if (*r == ')' && depth > 0)
			depth--;
		else if (depth == 0 && *r != '`')
			*w++ = *r;
	}
	*w = '\0';
}

static struct ref_event *ref_find(const char *full_name)
{
	for (size_t i = 0; i < ref_count; i++)
		if (strcmp(ref[i].full_name, full_name) == 0)
			return &ref[i];
	return NULL;
}

static struct ref_event *ref_add(const char *provider, const char *name)
{
	assert_true(ref_count < MAX_REF_EVENTS);
	struct ref_event *e = &ref[ref_count++];
	memset(e, 0, sizeof *e);
	snprintf(e->full_name, sizeof e->full_name, "%s:%s", provider, name);
	return e;
}

static void ref_add_field(struct ref_event *e, const char *field)
{
	assert_true(e->field_count < CS_MAX_FIELDS + 2);
	snprintf(e->fields[e->field_count++], sizeof e->fields[0], "%s", field);
}

/* One table row: "| names | [replaces |] fields |". */
static void parse_row(const char *provider, char *line, int fields_col)
{
	char *cells[8];
	int n = 0;

	for (char *tok = strtok(line, "|"); tok && n < 8; tok = strtok(NULL, "|"))
		cells[n++] = tok;
	assert_true(fields_col < n);
	strip_remarks(cells[0]);
	strip_remarks(cells[fields_col]);

	char names[256], *save = NULL;
	snprintf(names, sizeof names, "%s", cells[0]);
	for (char *name = strtok_r(names, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		struct ref_event *e = ref_add(provider, trim(name));
		char fields[512], *fsave = NULL;
		snprintf(fields, sizeof fields, "%s", cells[fields_col]);
		for (char *f = strtok_r(fields, ",", &fsave); f;
		     f = strtok_r(NULL, ",", &fsave))
			if (*trim(f))
				ref_add_field(e, trim(f));
	}
}

/* ros2_caret twins of ros2 initialization events: "the same fields as the
 * ros2 event of the same name (rcl_init without version), followed by
 * init_timestamp:i64". */
static void add_init_twins(char *list)
{
	char *save = NULL;

	for (char *name = strtok_r(list, ",.", &save); name;
	     name = strtok_r(NULL, ",.", &save)) {
		name = trim(name);
		if (!*name)
			continue;
		char full[96];
		snprintf(full, sizeof full, "ros2:%s", name);
		struct ref_event *base = ref_find(full);
		assert_non_null(base);
		struct ref_event *twin = ref_add("ros2_caret", name);
		for (size_t i = 0; i < base->field_count; i++)
			if (strcmp(name, "rcl_init") != 0 ||
			    strncmp(base->fields[i], "version:", 8) != 0)
				ref_add_field(twin, base->fields[i]);
		ref_add_field(twin, "init_timestamp:i64");
	}
}

static int load_reference(void **state)
{
	(void)state;
	const char *shared = getenv("CARET_SHARED_DIR");
	char path[4096], line[2048], twins[2048] = "";
	const char *provider = NULL;
	int fields_col = -1, in_twins = 0;

	snprintf(path, sizeof path, "%s/reference/tracepoints.md",
		shared ? shared : "../shared");
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "cannot open the reference: path=%s\n", path);
		return -1;
	}
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "## ", 3) == 0) {
			provider = strstr(line, "`ros2_caret`") ? "ros2_caret" :
				strstr(line, "`ros2`") ? "ros2" :
				strstr(line, "merged events") ? "ros2_caret" : NULL;
			fields_col = -1;
		} else if (in_twins) {
			if (*trim(line) == '\0')
				in_twins = 0;
			else
				strncat(twins, line, sizeof twins - strlen(twins) - 1);
		} else if (strstr(line, "instead of calling the original tracetools")) {
			in_twins = 1;
		} else if (provider && line[0] == '|' && strncmp(line, "|---", 4) != 0) {
			if (strstr(line, "| event |")) { /* header: find "fields" */
				int col = 0;
				for (char *c = line + 1; *c; c++)
					if (*c == '|')
						col++;
					else if (strncmp(c, " fields", 7) == 0 && c[-1] == '|')
						fields_col = col;
				continue;
			}
			if (fields_col > 0)
				parse_row(provider, line, fields_col);
		}
	}
	fclose(f);
	add_init_twins(twins);
	return ref_count > 0 ? 0 : -1;
}

static void test_reference_parsed(void **state)
{
	(void)state;
	/* Spot checks that the parser read what the reference says. */
	struct ref_event *e = ref_find("ros2:rcl_take");
	assert_non_null(e);
	assert_int_equal(e->field_count, 1);
	assert_string_equal(e->fields[0], "message:hex64");
	assert_non_null(ref_find("ros2:rclcpp_take"));
	e = ref_find("ros2:rclcpp_executor_get_next_ready");
	assert_non_null(e);
	assert_int_equal(e->field_count, 0);
	e = ref_find("ros2_caret:rcl_init");
	assert_non_null(e);
	assert_int_equal(e->field_count, 2);
	assert_non_null(ref_find("ros2_caret:merged_publish_timing"));
}

/* Events whose fields Jazzy changed (its tracetools.h and tp_call.h, and
 * CARET's Jazzy tp.h): the table has Jazzy's layout, which holds Humble's
 * (the reference's) fields by name; the analyzer reads either. */
static const char *const jazzy_layouts[] = { "ros2:rmw_publish", "ros2_caret:dds_write" };

static bool jazzy_layout(const char *full_name)
{
	for (size_t i = 0; i < sizeof jazzy_layouts / sizeof *jazzy_layouts; i++)
		if (!strcmp(jazzy_layouts[i], full_name))
			return true;
	return false;
}

/* Every field of the reference's (Humble) form is in the table's event. */
static void expect_humble_fields_in(const struct cs_event *e, const struct ref_event *r)
{
	for (size_t j = 0; j < r->field_count; j++) {
		bool found = false;
		for (size_t k = 0; k < e->field_count && !found; k++) {
			char field[64];
			snprintf(field, sizeof field, "%s:%s", e->fields[k].name,
				cs_type_name(e->fields[k].type));
			found = !strcmp(field, r->fields[j]);
		}
		if (!found)
			fail_msg("%s: Humble's field %s is not in the table", e->full_name,
				r->fields[j]);
	}
}

static void test_every_reference_event_in_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < ref_count; i++) {
		const struct cs_event *e = cs_event_by_full_name(ref[i].full_name);
		if (!e)
			fail_msg("%s is in the reference, not in the table",
				ref[i].full_name);
		if (jazzy_layout(e->full_name)) {
			expect_humble_fields_in(e, &ref[i]);
			continue;
		}
		if (e->field_count != ref[i].field_count)
			fail_msg("%s: table has %zu fields, reference %zu",
				e->full_name, e->field_count, ref[i].field_count);
		for (size_t j = 0; j < e->field_count; j++) {
			char field[64];
			snprintf(field, sizeof field, "%s:%s", e->fields[j].name,
				cs_type_name(e->fields[j].type));
			if (strcmp(field, ref[i].fields[j]) != 0)
				fail_msg("%s field %zu: table says %s, reference %s",
					e->full_name, j, field, ref[i].fields[j]);
		}
	}
}

/* Events the reference (Humble) does not have: Jazzy's (ros2_tracing 8.x,
 * and CARET's Jazzy tracer), and caret-c's own (docs/trace-format.md; the
 * original analyzer ignores them). */
static const char *const own_events[] = {
	"ros2:rclcpp_construct_ring_buffer", "ros2:rclcpp_buffer_to_ipb",
	"ros2:rclcpp_ipb_to_subscription", "ros2:rclcpp_ring_buffer_enqueue",
	"ros2:rclcpp_ring_buffer_dequeue", "ros2:rclcpp_ring_buffer_clear",
	"ros2_caret:rclcpp_construct_ring_buffer", "ros2_caret:rclcpp_buffer_to_ipb",
	"ros2_caret:rclcpp_ipb_to_subscription",
	"ros2_caret:callback_group_to_executor_entity_collector",
	"ros2_caret:executor_entity_collector_to_executor",
	"ros2_caret:tracetools_status",
	"ros2_caret:tracer_warning",
	/* tf: seed 001's design, which the reference does not list */
	"ros2_caret:init_tf_buffer_frame_id_compact", "ros2_caret:send_transform",
	"ros2_caret:tf_set_transform", "ros2_caret:tf_lookup_transform",
	"ros2_caret:send_static_transform", "ros2_caret:tf_set_static_transform",
	"ros2_caret:tf_buffer_find_closest",
	/* services: Kilted's ros2_tracing (8.5), and the tracer's twins of them */
	"ros2:rmw_client_init", "ros2:rmw_send_request", "ros2:rmw_take_request",
	"ros2:rmw_send_response", "ros2:rmw_take_response",
	"ros2_caret:rmw_client_init", "ros2_caret:rmw_send_request", "ros2_caret:rmw_take_request",
	"ros2_caret:rmw_send_response", "ros2_caret:rmw_take_response",
	/* a client's response callback run (rclcpp has no tracepoint for it) */
	"ros2_caret:client_callback_start", "ros2_caret:client_callback_end",
	/* when a taken message reached the subscriber's middleware */
	"ros2_caret:rmw_take_reception",
	/* when a sample reached a subscription's reader (Cyclone DDS) */
	"ros2_caret:rmw_data_available",
};
#define N_OWN (sizeof own_events / sizeof *own_events)

static bool own_event(const char *full_name)
{
	for (size_t i = 0; i < N_OWN; i++)
		if (!strcmp(own_events[i], full_name))
			return true;
	return false;
}

static void test_every_table_event_in_reference(void **state)
{
	(void)state;
	for (size_t i = 0; i < CS_EVENT_COUNT; i++)
		if (!ref_find(cs_events[i].full_name) && !own_event(cs_events[i].full_name))
			fail_msg("%s is in the table, not in the reference",
				cs_events[i].full_name);
	assert_int_equal(ref_count + N_OWN, CS_EVENT_COUNT);
}

static void test_table_is_consistent(void **state)
{
	(void)state;
	for (size_t i = 0; i < CS_EVENT_COUNT; i++) {
		const struct cs_event *e = &cs_events[i];
		assert_int_equal(e->id, i);
		assert_ptr_equal(cs_event_by_full_name(e->full_name), e);
		assert_true(e->field_count <= CS_MAX_FIELDS);
		for (size_t j = 0; j < e->field_count; j++)
			assert_int_equal(cs_field_index(e, e->fields[j].name), (int)j);
		/* Every ros2_caret initialization event stamps its call time. */
		if (strcmp(e->provider, "ros2_caret") == 0 && e->role == CS_ROLE_INIT)
			assert_int_equal(cs_field_index(e, "init_timestamp"),
				(int)e->field_count - 1);
	}
	assert_null(cs_event_by_full_name("ros2:no_such_event"));
	assert_null(cs_event_by_full_name(NULL));
	assert_int_equal(cs_field_index(&cs_events[CS_EV_ros2_rcl_init], "nope"), -1);
}

static void test_type_properties(void **state)
{
	(void)state;
	assert_int_equal(cs_type_bits(CS_TYPE_HEX64), 64);
	assert_int_equal(cs_type_display_base(CS_TYPE_HEX64), 16);
	assert_false(cs_type_is_signed(CS_TYPE_HEX64));
	assert_int_equal(cs_type_bits(CS_TYPE_I32), 32);
	assert_true(cs_type_is_signed(CS_TYPE_I32));
	assert_true(cs_type_is_signed(CS_TYPE_I64));
	assert_false(cs_type_is_signed(CS_TYPE_U64));
	assert_int_equal(cs_type_display_base(CS_TYPE_U64), 10);
	assert_int_equal(cs_type_bits(CS_TYPE_GID), 8);
	assert_false(cs_type_is_integer(CS_TYPE_STR));
	assert_false(cs_type_is_integer(CS_TYPE_GID));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_parsed),
		cmocka_unit_test(test_every_reference_event_in_table),
		cmocka_unit_test(test_every_table_event_in_reference),
		cmocka_unit_test(test_table_is_consistent),
		cmocka_unit_test(test_type_properties),
	};
	return cmocka_run_group_tests(tests, load_reference, NULL);
}
