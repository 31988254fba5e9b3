/* elf_symbols.c - see elf_symbols.h. */
#include "elf_symbols.h"

#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The names of one symbol table whose strings are in str; false when
 * visit said to stop. */
static bool visit_table(const char *base, const Elf64_Shdr *table, const Elf64_Shdr *str,
	bool (*visit)(const char *, void *), void *user)
{
	const char *names = base + str->sh_offset;
	const Elf64_Sym *sym = (const Elf64_Sym *)(base + table->sh_offset);
	for (size_t k = 0; k < table->sh_size / sizeof *sym; k++) {
		size_t at = sym[k].st_name;
		if (at && at < str->sh_size && memchr(names + at, '\0', str->sh_size - at) &&
		    !visit(names + at, user))
			return false;
	}
	return true;
}

/* ROS 2's tier-1 machines are 64-bit, little-endian (amd64, arm64): those
 * ELF files are read, any other is "not ours". */
static int walk(const char *base, size_t size, bool (*visit)(const char *, void *), void *user)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;
	if (size < sizeof *eh || memcmp(base, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    (eh->e_type != ET_EXEC && eh->e_type != ET_DYN))
		return 0;
	if (!eh->e_shoff || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    eh->e_shoff > size || (size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum)
		return 1; /* no section table: no symbol to list */
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(base + eh->e_shoff);
	for (size_t s = 0; s < eh->e_shnum; s++) {
		if (sh[s].sh_type != SHT_DYNSYM || sh[s].sh_link >= eh->e_shnum)
			continue;
		const Elf64_Shdr *str = &sh[sh[s].sh_link];
		if (sh[s].sh_offset > size || size - sh[s].sh_offset < sh[s].sh_size ||
		    str->sh_offset > size || size - str->sh_offset < str->sh_size)
			continue; /* cut short: what it says lies past its end */
		if (!visit_table(base, &sh[s], str, visit, user))
			break;
	}
	return 1;
}

int elf_dynamic_symbols(const char *path, bool (*visit)(const char *name, void *user),
	void *user)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < EI_NIDENT) {
		close(fd);
		return 0;
	}
	void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	int status = walk(map, (size_t)st.st_size, visit, user);
	munmap(map, (size_t)st.st_size);
	return status;
}
