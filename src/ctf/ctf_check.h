/*
 * ctf_check.h - the framing of an LTTng CTF trace checked before any
 * reader trusts it: the metadata's packets, every stream file's packet
 * headers, and the index files against the packets they describe.
 * libbabeltrace2 hangs on a metadata file cut mid-packet and aborts on a
 * damaged stream or index; these checks turn such traces into a one-line
 * error first. Only headers are read (a few bytes per packet).
 */
#ifndef CA_CTF_CHECK_H
#define CA_CTF_CHECK_H

#include <stddef.h>

/* 0 when the trace directory (the one holding "metadata") is well framed;
 * -1 with the first problem in err ("<file>: ..."). */
int ca_ctf_check_dir(const char *dir, char *err, size_t err_size);

#endif
