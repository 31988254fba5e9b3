/*
 * ctf_check.h - the framing of an LTTng CTF trace checked before any
 * reader trusts it: the metadata's packets, every stream file's packet
 * headers (each packet of the trace's UUID: a file of another recording
 * read as this one's would mix two runs), the index files against the
 * packets they describe, and every indexed stream file present (a stream
 * removed would be events lost without a word).
 * libbabeltrace2 hangs on a metadata file cut mid-packet and aborts on a
 * damaged stream or index; these checks turn such traces into a one-line
 * error first. Only headers are read (a few bytes per packet).
 */
#ifndef CA_CTF_CHECK_H
#define CA_CTF_CHECK_H

#include <stddef.h>

#include "caret/error.h"

/* CARET_OK when the trace directory (the one holding "metadata") is well
 * framed; else the first problem's status with *error: the file, the byte
 * in it and what is wrong (free it). */
caret_status ctf_check_dir(const char *dir, caret_error **error);
/* The same in words: 0, or -1 with the problem in err ("DIR/FILE: ..."). */
int ca_ctf_check_dir(const char *dir, char *err, size_t err_size);

#endif
