/* elf_symbols.h - the dynamic symbols an ELF file (an executable or a
 * shared library) defines or needs, read from its .dynsym as `nm -D`
 * lists them: what check_caret_rclcpp looks for in a workspace's binaries. */
#ifndef CARET_CLI_ELF_SYMBOLS_H
#define CARET_CLI_ELF_SYMBOLS_H

#include <stdbool.h>

/* Calls visit with each dynamic symbol's name of the file at path until it
 * returns false. 1 when the file is a 64-bit little-endian executable or
 * shared object (amd64, arm64: ROS 2's tier-1 machines), 0 when it is not
 * (another file, an object file), -1 when it cannot be read. */
int elf_dynamic_symbols(const char *path, bool (*visit)(const char *name, void *user),
	void *user);

#endif
