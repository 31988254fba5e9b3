/*
 * test_report_split - where a path's messages waited, on caret report's
 * page (report/sec_split.c), for a trace built row by row: /n1's timer
 * publishes on /t, /n2 takes it, Cyclone DDS's arrivals recorded for all
 * messages but the last. The topic hop's segment holds its three parts
 * and the grey rest of the message not split, adding up to the hop's
 * mean; the card says how the reception was known and how many were not
 * split; the worst instances' table and the page's data have each
 * instance's own parts. Without an arrival, nothing of it is on the page.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_builder.h"

enum { MESSAGES = 5 };

/* /n1 (pid 1): a timer whose callback publishes on /t; /n2 (pid 2): a
 * subscription to /t. */
static void system_of(void)
{
	ROW(ros2_rcl_node_init, 1, 1, "node_handle", U(0x1000), "node_name", S("n1"), "namespace",
		S("/"));
	ROW(ros2_rcl_timer_init, 2, 1, "timer_handle", U(0x1010), "period", U(1000));
	ROW(ros2_rclcpp_timer_link_node, 3, 1, "timer_handle", U(0x1010), "node_handle", U(0x1000));
	ROW(ros2_rclcpp_timer_callback_added, 4, 1, "timer_handle", U(0x1010), "callback",
		U(0x1014));
	ROW(ros2_rcl_publisher_init, 5, 1, "publisher_handle", U(0x1040), "node_handle", U(0x1000),
		"topic_name", S("/t"));
	ROW(ros2_rcl_node_init, 1, 2, "node_handle", U(0x2000), "node_name", S("n2"), "namespace",
		S("/"));
	ROW(ros2_rcl_subscription_init, 5, 2, "subscription_handle", U(0x2020), "node_handle",
		U(0x2000), "rmw_subscription_handle", U(0x2028), "topic_name", S("/t"));
	ROW(ros2_rclcpp_subscription_init, 6, 2, "subscription_handle", U(0x2020), "subscription",
		U(0x2030));
	ROW(ros2_rclcpp_subscription_callback_added, 7, 2, "subscription", U(0x2030), "callback",
		U(0x2034));
}

/* Message i: published at `at` in /n1's run (written 2 ns later), taken at
 * at + 300 by /n2, whose callback starts 10 ns later: 310 ns on /t; its
 * arrival at /n2's reader 50 ns after the publish (when `arrived`). */
static void message(uint64_t at, uint64_t stamp, bool arrived)
{
	ROW(ros2_caret_merged_callback_timing, at + 20, 1, "callback", U(0x1014),
		"callback_start_timestamp", U(at - 10));
	ROW(ros2_caret_merged_publish_timing, at + 5, 1, "publisher_handle", U(0x1040), "message",
		U(0x9), "rclcpp_publish_timestamp", U(at), "rcl_publish_timestamp", U(at + 1),
		"dds_write_timestamp", U(at + 2), "source_stamp", U(stamp));
	if (arrived)
		ROW(ros2_caret_rmw_data_available, at + 50, 2, "rmw_subscription_handle", U(0x2028));
	ROW(ros2_rmw_take, at + 300, 2, "rmw_subscription_handle", U(0x2028), "message", U(0x5),
		"source_timestamp", U(stamp), "taken", U(1));
	ROW(ros2_caret_merged_callback_timing, at + 330, 2, "callback", U(0x2034),
		"callback_start_timestamp", U(at + 310));
}

/* The page of the trace built (to free). */
static char *page(bool arrivals)
{
	system_of();
	for (uint64_t i = 0; i < MESSAGES; i++)
		message(1000 + 1000 * i, 5000 + i, arrivals && i + 1 < MESSAGES);
	build();
	char err[256], *text = NULL;
	size_t size = 0;
	ca_report_options o = { 0 };
	ca_report *rep = ca_report_new(&o, err, sizeof err);
	FILE *out = open_memstream(&text, &size);
	assert_non_null(rep);
	assert_non_null(out);
	assert_int_equal(ca_report_write(rep, t, out, err, sizeof err), 0);
	fclose(out);
	ca_report_free(rep);
	return text;
}

static void test_split_on_the_card(void **state)
{
	(void)state;
	char *html = page(true);
	/* the hop's mean, 310 ns; 4 of 5 split: 2, 48 and 260 each 4/5 of
	 * theirs, the rest 310/5 */
	assert_non_null(strstr(html, "<span class='hop split' style='width:"));
	assert_non_null(strstr(html, "data-ns='310' data-hop='topic /t'"));
	assert_non_null(strstr(html, "class='part p0' style='width:0.516%;background-color:#f28e2b' "
				     "data-ns='2'"));
	assert_non_null(strstr(html, "class='part p1' style='width:12.387%;background-color:#f28e2b' "
				     "data-ns='38'"));
	assert_non_null(strstr(html, "class='part p2' style='width:67.097%;background-color:#f28e2b' "
				     "data-ns='208'"));
	assert_non_null(strstr(html, "class='part rest' style='width:20.000%;background-color:#bab0ac' "
				     "data-ns='62' title='topic /t, the 1 not split"));
	assert_non_null(strstr(html, "Cyclone DDS's reader arrival"));
	assert_non_null(strstr(html, "topic /t 1 of 5."));
	/* the worst instances, all one (the first message's, split): its
	 * parts' rows; the page's data, each instance's (the last not split) */
	assert_non_null(strstr(html, "<th>max = p99 (≥ 0.000) = p50 (≥ 0.000) = first<br>"));
	assert_non_null(strstr(html, "<tr class='part' data-part='2'><td><i class='part p2'></i>"
				     "reception→callback (the executor&#39;s wait)</td><td>0.000</td></tr>"));
	assert_non_null(strstr(html, "\"sp\":[0,0,0.3,0,0,0.3,0,0,0.3,0,0,0.3,null,null,null]"));
	free(html);
}

static void test_nothing_without_receptions(void **state)
{
	(void)state;
	char *html = page(false);
	assert_non_null(strstr(html, "<div class='stack'>"));
	assert_null(strstr(html, "class='hop split'"));
	assert_null(strstr(html, "split-note"));
	assert_null(strstr(html, "<tr class='part'"));
	assert_null(strstr(html, "\"sp\":"));
	free(html);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_split_on_the_card, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nothing_without_receptions, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
