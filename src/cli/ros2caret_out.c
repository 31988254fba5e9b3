/* ros2caret_out.c - see ros2caret_out.h. */
#include "ros2caret_out.h"
#include "option_number.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void ros2caret_log(enum ros2caret_level level, const char *fmt, ...)
{
	static const char *const names[] = { "INFO", "WARNING", "ERROR" };
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(stderr, "%-8s: %s | ", names[level], stamp);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* tabulate's presto rows: " cell |  cell", trailing blanks cut */
static void presto_row(FILE *out, int name_width, const char *name, int count_width,
	const char *count)
{
	char line[1024];
	int n = snprintf(line, sizeof line, " %-*s | %*s", name_width, name, count_width, count);
	while (n > 0 && (size_t)n < sizeof line && line[n - 1] == ' ')
		line[--n] = '\0';
	fprintf(out, "%s\n", line);
}

void ros2caret_table(FILE *out, const char *name_header, const char *count_header,
	const char *const *names, const uint64_t *counts, size_t n)
{
	/* tabulate: a header and two spaces, or the widest cell */
	int name_width = (int)strlen(name_header) + 2, count_width = (int)strlen(count_header) + 2;
	char digits[24];
	for (size_t i = 0; i < n; i++) {
		int w = (int)strlen(names[i]), d = snprintf(digits, sizeof digits, "%" PRIu64,
			counts[i]);
		name_width = w > name_width ? w : name_width;
		count_width = d > count_width ? d : count_width;
	}
	presto_row(out, name_width, name_header, count_width, count_header);
	for (int i = 0; i < name_width + 2; i++)
		fputc('-', out);
	fputc('+', out);
	for (int i = 0; i < count_width + 2; i++)
		fputc('-', out);
	fputc('\n', out);
	for (size_t i = 0; i < n; i++) {
		snprintf(digits, sizeof digits, "%" PRIu64, counts[i]);
		presto_row(out, name_width, names[i], count_width, digits);
	}
}

void ros2caret_log_findings(const ca_trace *t, size_t *warnings, size_t *errors)
{
	const ca_architecture *a = ca_trace_architecture(t);
	const ca_finding *f;
	size_t n = ca_trace_findings(t, &f);
	*warnings = *errors = 0;
	for (size_t i = 0; i < n; i++) {
		if (f[i].severity == CA_INFO)
			continue;
		enum ros2caret_level level = f[i].severity == CA_ERROR ? ROS2CARET_ERROR :
			ROS2CARET_WARNING;
		++*(level == ROS2CARET_ERROR ? errors : warnings);
		const ca_process *p = f[i].pid < 0 ? NULL : ca_architecture_process(a, f[i].pid);
		if (p)
			ros2caret_log(level, "process %" PRId64 " (%s): %s", p->pid,
				p->procname ? p->procname : "?", f[i].text);
		else
			ros2caret_log(level, "%s", f[i].text);
	}
}

int ros2caret_check_max_order(const char *verb, const char *arg)
{
	const struct cli_number order = { "-m (--max_callback_construction_order_on_path_searching)",
		CLI_COUNT, 0, 2147483647, false };
	double v;
	return cli_number(verb, &order, arg, &v);
}
