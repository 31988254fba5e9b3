/*
 * sec_check.c - the Check section: caret check's findings, the whole
 * trace's first, then one fold per process (open when it has an error or a
 * warning), and what the latencies rest on (ca_records_caveat).
 */
#include <inttypes.h>
#include <string.h>

#include "report.h"

static const char *const severity_names[] = { "info", "warning", "error" };

static void finding(FILE *out, const ca_finding *f)
{
	fprintf(out, "<li class='%s'><b>%s</b> ", severity_names[f->severity],
		severity_names[f->severity]);
	report_text(out, f->text);
	fputs("</li>", out);
}

/* "1 error, 2 warnings, 3 info" of the findings of one pid. */
static void counts(FILE *out, const size_t by[3])
{
	fprintf(out, "%zu %s, %zu %s, %zu info", by[CA_ERROR], by[CA_ERROR] == 1 ? "error" :
		"errors", by[CA_WARNING], by[CA_WARNING] == 1 ? "warning" : "warnings", by[CA_INFO]);
}

void report_check_section(struct report *r)
{
	const ca_finding *f;
	size_t n = ca_trace_findings(r->trace, &f), total[3] = { 0 };
	FILE *out = r->out;
	for (size_t i = 0; i < n; i++)
		total[f[i].severity]++;
	fputs("<section id='check'><h2>Check</h2>", out);
	fprintf(out, "<p class='verdict %s'>", total[CA_ERROR] ? "bad" : "good");
	fputs(total[CA_ERROR] ? "Latencies from this trace would be wrong or incomplete: see the "
		"errors below." : "No error: the trace can give correct latencies.", out);
	fputs(" <span class='muted'>(", out);
	counts(out, total);
	fputs(")</span></p>", out);
	size_t i = 0;
	if (n && f[0].pid < 0) {
		fputs("<ul class='findings'>", out);
		for (; i < n && f[i].pid < 0; i++)
			finding(out, &f[i]);
		fputs("</ul>", out);
	}
	while (i < n) { /* findings come in order of pid */
		size_t j = i, by[3] = { 0 };
		for (; j < n && f[j].pid == f[i].pid; j++)
			by[f[j].severity]++;
		const ca_process *p = ca_architecture_process(r->arch, f[i].pid);
		char label[1024];
		fprintf(out, "<details class='process'%s><summary>",
			by[CA_ERROR] || by[CA_WARNING] ? " open" : "");
		if (p) /* its program and the user's nodes in it */
			ca_process_label(r->arch, (size_t)(p - r->arch->processes), label, sizeof label);
		else
			snprintf(label, sizeof label, "pid %" PRId64, f[i].pid);
		report_text(out, label);
		if (p && p->distribution) {
			fputs(" <span class='muted'>", out);
			report_text(out, p->distribution);
			fputs(", ", out);
			report_text(out, p->rmw_implementation ? p->rmw_implementation : "rmw unknown");
			fputs("</span>", out);
		}
		fputs(" — ", out);
		counts(out, by);
		fputs("</summary><ul class='findings'>", out);
		for (; i < j; i++)
			finding(out, &f[i]);
		fputs("</ul></details>", out);
	}
	char note[512];
	for (size_t k = 0; ca_records_caveat(r->messages, k, note, sizeof note); k++) {
		fputs("<p class='warning'>Note: ", out);
		report_text(out, note);
		fputs(".</p>", out);
	}
	fputs("</section>", out);
}
