/*
 * compare_rules.c - caret compare's --fail-on rules (compare_rules.h).
 */
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "compare_rules.h"

static const char *const stat_names[] = { "count", "mean", "p50", "p90", "p99", "max" };
#define N_STATS (sizeof stat_names / sizeof *stat_names)

const char *compare_rule_stat_name(enum rule_stat stat)
{
	return stat_names[stat];
}

static int bad(const char *text, const char *why)
{
	fprintf(stderr, "caret compare: --fail-on '%s': %s (a rule is 'KIND:GLOB STAT +N%%' or "
		"'+N<unit>', e.g. 'path:* p99 +10%%', 'callback:/planner/* mean +0.5ms')\n",
		CLI_NAME(text), why);
	return 2;
}

/* The amount "+10%", "-0.5ms", "+3" (a count) into the rule. */
static int parse_amount(const char *text, const char *word, struct compare_rule *r)
{
	if (*word != '+' && *word != '-')
		return bad(text, "the change must begin with + (a rise) or - (a fall)");
	r->sign = *word == '+' ? 1 : -1;
	char number[64];
	size_t len = strlen(word + 1);
	if (!len || len >= sizeof number)
		return bad(text, "no amount after the sign");
	memcpy(number, word + 1, len + 1);
	r->percent = number[len - 1] == '%';
	if (r->percent)
		number[len - 1] = 0;
	static const struct cli_number percent = { "the percentage", CLI_REAL, 0, 1e6, false },
		count = { "the count", CLI_COUNT, 0, CLI_NUMBER_MAX, false },
		duration = { "the duration", CLI_DURATION, 0, 86400, false };
	const struct cli_number *n = r->percent ? &percent : r->stat == RULE_COUNT ? &count :
		&duration;
	const char *why;
	double v;
	if (!cli_number_parse(n, number, &v, &why)) {
		char msg[200], range[160];
		cli_number_range(n, range, sizeof range);
		snprintf(msg, sizeof msg, "bad amount '%s': %s (%s%s)", word + 1, why, range,
			r->percent ? ", then %" : "");
		return bad(text, msg);
	}
	r->amount = r->percent || r->stat == RULE_COUNT ? v : v * 1e9; /* durations in ns */
	return 0;
}

int compare_rule_parse(const char *text, struct compare_rule *r)
{
	char kind[32], glob[sizeof r->glob], stat[16], amount[64], extra[2];
	*r = (struct compare_rule){ .text = text };
	int words = sscanf(text, " %31[^: ]:%511s %15s %63s %1s", kind, glob, stat, amount, extra);
	if (words == 5)
		return bad(text, "more than three words");
	if (!strchr(text, ':'))
		return bad(text, "no KIND: before the glob");
	if (words < 1 || !ca_cmp_kind_of_name(kind, &r->kind))
		return bad(text, "KIND must be callback, topic, node or path");
	if (words < 4)
		return bad(text, "a glob, a statistic and a change are needed");
	size_t s = 0;
	while (s < N_STATS && strcmp(stat, stat_names[s]))
		s++;
	if (s == N_STATS)
		return bad(text, "STAT must be count, mean, p50, p90, p99 or max");
	r->stat = (enum rule_stat)s;
	snprintf(r->glob, sizeof r->glob, "%s", glob);
	return parse_amount(text, amount, r);
}

static double value_of(const ca_stats *s, enum rule_stat stat)
{
	switch (stat) {
	case RULE_COUNT: return (double)s->count;
	case RULE_MEAN: return s->mean;
	case RULE_P50: return s->p50;
	case RULE_P90: return s->p90;
	case RULE_P99: return s->p99;
	case RULE_MAX: return (double)s->max;
	}
	return NAN;
}

/* The difference of a statistic with an interval, or NULL. */
static const ca_cmp_diff *diff_of(const ca_cmp_row *row, enum rule_stat stat)
{
	switch (stat) {
	case RULE_MEAN: return &row->diff[CA_CMP_MEAN];
	case RULE_P50: return &row->diff[CA_CMP_P50];
	case RULE_P90: return &row->diff[CA_CMP_P90];
	case RULE_P99: return &row->diff[CA_CMP_P99];
	default: return NULL;
	}
}

/* A value as the rule's statistic is said: µs, or a count. */
static void said(char *buf, size_t size, enum rule_stat stat, double v, bool sign)
{
	if (stat == RULE_COUNT)
		snprintf(buf, size, sign ? "%+.0f" : "%.0f", v);
	else
		snprintf(buf, size, sign ? "%+.1f us" : "%.1f us", v / 1e3);
}

bool compare_rule_fires(const struct compare_rule *r, const ca_cmp_row *row, FILE *out)
{
	if (row->kind != r->kind || !row->base || !row->new_ || fnmatch(r->glob, row->name, 0))
		return false;
	double a = value_of(&row->stats[0], r->stat), b = value_of(&row->stats[1], r->stat);
	double change = (b - a) * r->sign;
	double limit = r->percent ? fabs(a) * r->amount / 100 : r->amount;
	const ca_cmp_diff *d = diff_of(row, r->stat);
	if (d && !d->has_ci)
		return false; /* too few instances for an interval */
	if (!(change > limit) || (d && !(r->sign > 0 ? d->low > 0 : d->high < 0)))
		return false;
	char sa[40], sb[40], sd[40], ci[96] = "";
	said(sa, sizeof sa, r->stat, a, false);
	said(sb, sizeof sb, r->stat, b, false);
	said(sd, sizeof sd, r->stat, b - a, true);
	if (d)
		snprintf(ci, sizeof ci, ", %.0f%% CI %+.1f..%+.1f us", 95.0, d->low / 1e3,
			d->high / 1e3);
	fprintf(out, "caret compare: --fail-on '%s' fired: %s %s: %s %s -> %s (%s",
		CLI_NAME(r->text), ca_cmp_kind_name(row->kind), CLI_NAME(row->name),
		stat_names[r->stat], sa, sb, sd);
	if (a != 0)
		fprintf(out, ", %+.1f%%", (b - a) / fabs(a) * 100);
	fprintf(out, "%s)\n", ci);
	return true;
}
