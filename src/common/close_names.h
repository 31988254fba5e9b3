/* close_names.h - for a name asked for and not found (a node, a topic, a
 * named path): the names nearest it, "did you mean", and the names there
 * are when there are few, in one line. Every verb that takes names says
 * its misses this way (caret path, caret live, the architecture file). */
#ifndef CARET_COMMON_CLOSE_NAMES_H
#define CARET_COMMON_CLOSE_NAMES_H

#include <stddef.h>

/* How alike a and b are, from 0 to 1: 1 - their edit distance (Levenshtein)
 * over the longer one's length, as difflib's ratio ranks them; a name whose
 * last '/' part is the other's last part (a namespace left out or wrong)
 * counts 0.9 at least. */
double caret_name_similarity(const char *a, const char *b);

/* The names at least 0.6 alike to wanted (difflib.get_close_matches'
 * cutoff), the most alike first, at most max of them, into best; their
 * number. Names listed twice count once. */
size_t caret_close_names(const char *wanted, const char *const *names, size_t n,
	const char **best, size_t max);

/* At most this many names are listed in full by caret_name_hint. */
#define CARET_NAME_HINT_LIST 12

/* The hint for "no KIND WANTED (HINT)", one line, into out (never longer
 * than size): "did you mean /filter? its nodes: /filter, /sensor, /sink";
 * with more than CARET_NAME_HINT_LIST names the list gives way to their
 * count and, if lister is not NULL, "LISTER lists them"; with no close
 * name, the list alone ("its nodes: ...", "none close among its 240
 * nodes"); with no name, "there are no nodes". kind: the plural noun. */
void caret_name_hint(char *out, size_t size, const char *wanted, const char *kind,
	const char *const *names, size_t n, const char *lister);

#endif
