/*
 * fuzz_arch - libFuzzer target: an architecture file (the input) checked,
 * its path "p" and its requirements read, as `caret arch --check`, `caret
 * path --arch` and `caret check --requirements` do.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ca.h"
#include "requirements.h"

static char file[256];

static void remove_file(void)
{
	unlink(file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!file[0]) {
		snprintf(file, sizeof file, "/tmp/caret-fuzz-arch-%d.yaml", (int)getpid());
		atexit(remove_file); /* libFuzzer ends through exit() */
	}
	FILE *f = fopen(file, "wb");
	if (!f || fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
	char err[1024] = "";
	ca_arch_file_summary sum;
	if (ca_arch_file_check(file, &sum, err, sizeof err) != 0 && (!err[0] || strchr(err, '\n')))
		abort(); /* an error is one line, never empty */
	ca_path_set *set = ca_arch_file_path(file, "p", err, sizeof err);
	if (set)
		ca_path_set_free(set);
	ca_requirement *q;
	size_t n;
	err[0] = '\0';
	if (ca_arch_file_requirements(file, &q, &n, err, sizeof err) == 0)
		ca_requirements_free(q, n);
	else if (!err[0] || strchr(err, '\n'))
		abort();
	return 0;
}
