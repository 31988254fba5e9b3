/*
 * compare_rules.h - caret compare's --fail-on rules: "KIND:GLOB STAT
 * +N%" (or -N%, +N<unit>, a count's +N): parsed, and each row of a
 * comparison held against them (docs/compare.md says when a rule fires).
 */
#ifndef CARET_CLI_COMPARE_RULES_H
#define CARET_CLI_COMPARE_RULES_H

#include <stdbool.h>
#include <stdio.h>

#include "compare.h"

/* What a rule measures: a statistic of each side. */
enum rule_stat { RULE_COUNT, RULE_MEAN, RULE_P50, RULE_P90, RULE_P99, RULE_MAX };

struct compare_rule {
	const char *text;  /* as given */
	ca_cmp_kind kind;
	char glob[512];
	enum rule_stat stat;
	int sign;          /* +1: a rise, -1: a fall */
	bool percent;      /* amount in % of the base's statistic, else ns (a count: instances) */
	double amount;
};

/* text into *rule: 0, or 2 after "caret compare: --fail-on 'TEXT': what is
 * wrong" on stderr. */
int compare_rule_parse(const char *text, struct compare_rule *rule);

/* Whether row fires rule: NEW - BASE of its statistic past the amount
 * that way, and for a statistic with an interval the interval on that
 * side of 0. When it fires, one line on out: the rule, the object, the
 * values. */
bool compare_rule_fires(const struct compare_rule *rule, const ca_cmp_row *row, FILE *out);

/* The statistic's name ("p99") and its value on side 0 (base) or 1. */
const char *compare_rule_stat_name(enum rule_stat stat);

#endif
