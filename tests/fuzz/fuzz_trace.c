/*
 * fuzz_trace - libFuzzer target: the analyzer's whole load (framing checks,
 * libbabeltrace2 behind its guard, the model, `caret check`'s findings) of
 * a real trace whose one file is replaced by the input, then its records.
 * The first input byte picks the file (metadata, a stream, an index; its
 * low two bits) and whether the runtime events are kept or read again in
 * more passes (bit 2, keep_runtime false); the rest is the file's
 * content. The template is ../shared/data/real-humble/caret-fork-inter,
 * copied once per run (CARET_SHARED_DIR).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ca.h"

static char dir[256];
static const char *const files[] = { "metadata", "ch0_0", "ch0_1", "index/ch0_0.idx" };
static char *originals[4];
static size_t sizes[4];

static void slurp(int i, const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		abort();
	fseek(f, 0, SEEK_END);
	sizes[i] = (size_t)ftell(f);
	rewind(f);
	originals[i] = malloc(sizes[i]);
	if (!originals[i] || fread(originals[i], 1, sizes[i], f) != sizes[i])
		abort();
	fclose(f);
}

static void put(const char *name, const void *data, size_t size)
{
	char path[512];
	snprintf(path, sizeof path, "%s/ust/uid/0/64-bit/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
}

/* The copy goes when the run ends (libFuzzer exits through exit()). */
static void remove_copy(void)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz_trace: cannot remove %s\n", dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *shared = getenv("CARET_SHARED_DIR");
	char cmd[1024];
	snprintf(dir, sizeof dir, "/tmp/caret-fuzz-trace-%d", (int)getpid());
	snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s/ust/uid/0/64-bit/index", dir, dir);
	if (system(cmd) != 0)
		abort();
	atexit(remove_copy);
	for (int i = 0; i < 4; i++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/data/real-humble/caret-fork-inter/ust/uid/0/64-bit/%s",
			shared ? shared : "../shared", files[i]);
		slurp(i, path);
	}
	char idx[1024];
	snprintf(idx, sizeof idx, "%s/data/real-humble/caret-fork-inter/ust/uid/0/64-bit/index/ch0_1.idx",
		shared ? shared : "../shared");
	FILE *f = fopen(idx, "rb");
	char buf[4096];
	size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
	if (f)
		fclose(f);
	put("index/ch0_1.idx", buf, n);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int which = data[0] % 4;
	for (int i = 0; i < 4; i++)
		if (i == which)
			put(files[i], data + 1, size - 1);
		else
			put(files[i], originals[i], sizes[i]);
	char err[1024];
	const char *paths[] = { dir };
	ca_load_options o = ca_load_defaults();
	o.keep_runtime = !(data[0] & 4);
	ca_trace *t = ca_trace_load_options(paths, 1, &o, err, sizeof err);
	if (t) {
		const ca_finding *f;
		(void)ca_trace_findings(t, &f);
		ca_records_free(ca_records_build(t, err, sizeof err));
		ca_trace_free(t);
	} else if (!err[0] || strchr(err, '\n')) {
		abort(); /* an error is one line, never empty */
	}
	return 0;
}
