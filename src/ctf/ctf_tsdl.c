/*
 * ctf_tsdl.c - the TSDL metadata of a CTF 1.8 trace as LTTng-UST writes it,
 * parsed into ctf_meta (ctf_native.h): type aliases, named structures and
 * enumerations, the trace, env, clock, stream and event blocks. Tokens
 * first, then a recursive descent; every allocation in one arena, freed
 * with the metadata. An error names the line and what was expected.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"

#include "ctf_native.h"

/* ---- arena ---------------------------------------------------------------- */

struct block {
	struct block *next;
	size_t used, size;
	max_align_t data[];
};

struct arena {
	struct block *head;
};

static void *arena_alloc(struct arena *a, size_t n)
{
	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	if (!a->head || a->head->size - a->head->used < n) {
		size_t size = n > 65536 ? n : 65536;
		struct block *b = malloc(sizeof *b + size);
		if (!b)
			return NULL;
		*b = (struct block){ a->head, 0, size };
		a->head = b;
	}
	void *p = (char *)a->head->data + a->head->used;
	a->head->used += n;
	memset(p, 0, n);
	return p;
}

static char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	if (p)
		memcpy(p, s, n);
	return p;
}

static void arena_free(struct arena *a)
{
	for (struct block *b = a->head, *next; b; b = next) {
		next = b->next;
		free(b);
	}
}

/* ---- tokens --------------------------------------------------------------- */

enum tok_kind { T_END, T_IDENT, T_NUMBER, T_STRING, T_PUNCT };

struct token {
	enum tok_kind kind;
	const char *text; /* T_IDENT, T_STRING (unquoted), T_PUNCT: in the arena */
	uint64_t number;
	unsigned line;
};

struct parser {
	struct arena arena;
	struct token *toks;
	size_t n_toks, cap_toks, pos;
	struct ctf_meta *meta;
	/* named types: aliases ("uint32_t", "unsigned long"), "struct X", "enum X" */
	struct named {
		char *name;
		struct ctf_type *type;
	} *names;
	size_t n_names, cap_names;
	char *err;
	size_t err_size;
	bool failed;
	bool cut; /* failed at the end of the text */
	unsigned depth; /* of nested types: hostile metadata must not exhaust the stack */
	/* event blocks, gathered before being put in their stream */
	struct ctf_event_class **events;
	size_t n_events, cap_events;
};

static void fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct parser *p, const char *fmt, ...)
{
	if (p->failed)
		return;
	p->failed = true;
	unsigned line = p->pos < p->n_toks ? p->toks[p->pos].line : 0;
	int n = snprintf(p->err, p->err_size, "metadata:%u: ", line);
	if (n < 0 || (size_t)n >= p->err_size)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->err_size - (size_t)n, fmt, ap);
	va_end(ap);
	/* the text ends inside a declaration: no reader can read it */
	p->cut = p->pos >= p->n_toks || p->toks[p->pos].kind == T_END;
	size_t used = strlen(p->err);
	if (p->cut && used < p->err_size)
		snprintf(p->err + used, p->err_size - used, ", but the metadata ends there: it was "
			"cut (the recording ended abruptly: session daemon or consumer killed?)");
}

static bool push_token(struct parser *p, struct token t)
{
	if (!VEC_ROOM(p->toks, p->n_toks, p->cap_toks))
		return false;
	p->toks[p->n_toks++] = t;
	return true;
}

static int tokenize(struct parser *p, const char *s, size_t size)
{
	const char *end = s + size;
	unsigned line = 1;
	static const char *const puncts[] = { ":=", "...", "{", "}", ";", "=", "[", "]", "<", ">",
		"(", ")", ",", ":", ".", "-", "+", "*" };
	while (s < end) {
		if (*s == '\n') {
			line++;
			s++;
		} else if (isspace((unsigned char)*s) || !*s) {
			s++;
		} else if (s + 1 < end && s[0] == '/' && s[1] == '*') {
			for (s += 2; s + 1 < end && !(s[0] == '*' && s[1] == '/'); s++)
				line += *s == '\n';
			s += 2;
		} else if (s + 1 < end && s[0] == '/' && s[1] == '/') {
			while (s < end && *s != '\n')
				s++;
		} else if (isalpha((unsigned char)*s) || *s == '_') {
			const char *b = s;
			while (s < end && (isalnum((unsigned char)*s) || *s == '_'))
				s++;
			char *text = arena_strndup(&p->arena, b, (size_t)(s - b));
			if (!text || !push_token(p, (struct token){ T_IDENT, text, 0, line }))
				return -1;
		} else if (isdigit((unsigned char)*s)) {
			char *after;
			uint64_t v = strtoull(s, &after, 0);
			if (after > end)
				after = (char *)end;
			while (after < end && strchr("uUlL", *after))
				after++;
			s = after;
			if (!push_token(p, (struct token){ T_NUMBER, NULL, v, line }))
				return -1;
		} else if (*s == '"') {
			const char *b = ++s;
			while (s < end && *s != '"') {
				if (*s == '\\' && s + 1 < end)
					s++;
				line += *s == '\n';
				s++;
			}
			char *text = arena_strndup(&p->arena, b, (size_t)(s - b));
			s += s < end;
			if (!text || !push_token(p, (struct token){ T_STRING, text, 0, line }))
				return -1;
		} else {
			size_t k = 0, n = sizeof puncts / sizeof *puncts;
			while (k < n && ((size_t)(end - s) < strlen(puncts[k]) ||
				strncmp(s, puncts[k], strlen(puncts[k]))))
				k++;
			if (k == n) {
				snprintf(p->err, p->err_size, "metadata:%u: unexpected character '%c'",
					line, isprint((unsigned char)*s) ? *s : '?');
				p->failed = true;
				return -1;
			}
			if (!push_token(p, (struct token){ T_PUNCT, puncts[k], 0, line }))
				return -1;
			s += strlen(puncts[k]);
		}
	}
	return push_token(p, (struct token){ T_END, NULL, 0, line }) ? 0 : -1;
}

static const struct token *peek(const struct parser *p)
{
	return &p->toks[p->pos < p->n_toks ? p->pos : p->n_toks - 1];
}

static bool is(const struct parser *p, const char *text)
{
	const struct token *t = peek(p);
	return (t->kind == T_PUNCT || t->kind == T_IDENT) && !strcmp(t->text, text);
}

static bool accept(struct parser *p, const char *text)
{
	if (!is(p, text))
		return false;
	p->pos++;
	return true;
}

static void expect(struct parser *p, const char *text)
{
	if (!accept(p, text))
		fail(p, "expected '%s'", text);
}

static const char *ident(struct parser *p)
{
	const struct token *t = peek(p);
	if (t->kind != T_IDENT) {
		fail(p, "expected a name");
		return "";
	}
	p->pos++;
	return t->text;
}

static int64_t number(struct parser *p)
{
	bool negative = accept(p, "-");
	const struct token *t = peek(p);
	if (t->kind != T_NUMBER) {
		fail(p, "expected a number");
		return 0;
	}
	p->pos++;
	if (t->number > INT64_MAX) {
		fail(p, "unsupported: a number beyond 64-bit signed integers");
		return 0;
	}
	return negative ? -(int64_t)t->number : (int64_t)t->number;
}

/* A value: a number, a string, or a dotted name ("clock.monotonic.value"). */
static const char *value_text(struct parser *p, char *buf, size_t size)
{
	const struct token *t = peek(p);
	if (t->kind == T_NUMBER || is(p, "-")) {
		snprintf(buf, size, "%" PRId64, number(p));
		return buf;
	}
	if (t->kind == T_STRING) {
		p->pos++;
		return t->text;
	}
	size_t n = 0;
	buf[0] = '\0';
	do {
		const char *part = ident(p);
		if (n < size)
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? "." : "", part);
	} while (!p->failed && accept(p, "."));
	return buf;
}

/* ---- names ---------------------------------------------------------------- */

static struct ctf_type *lookup(const struct parser *p, const char *name)
{
	for (size_t i = p->n_names; i-- > 0;)
		if (!strcmp(p->names[i].name, name))
			return p->names[i].type;
	return NULL;
}

static void define(struct parser *p, const char *name, struct ctf_type *type)
{
	char *copy = arena_strndup(&p->arena, name, strlen(name));
	if (!copy || !VEC_ROOM(p->names, p->n_names, p->cap_names)) {
		fail(p, "out of memory");
		return;
	}
	p->names[p->n_names++] = (struct named){ copy, type };
}

static struct ctf_type *new_type(struct parser *p, enum ctf_kind kind)
{
	struct ctf_type *t = arena_alloc(&p->arena, sizeof *t);
	if (!t) {
		fail(p, "out of memory");
		return NULL;
	}
	t->kind = kind;
	t->align = 8;
	t->big_endian = p->meta->big_endian;
	t->base = 10;
	return t;
}

/* ---- types ---------------------------------------------------------------- */

static struct ctf_type *type_specifier(struct parser *p);

/* v is one of the words of list (NULL-terminated): its index, or -1 */
static int word_of(const char *v, const char *const *list)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(v, list[i]))
			return i;
	return -1;
}

/* The values babeltrace2 accepts, so a damaged attribute is refused by both. */
static const char *const true_words[] = { "true", "TRUE", "1", NULL };
static const char *const false_words[] = { "false", "FALSE", "0", NULL };
static const char *const encodings[] = { "none", "UTF8", "utf8", "ASCII", "ascii", NULL };
static const char *const bases[] = { "decimal", "dec", "d", "i", "u", "10",
	"hexadecimal", "hex", "x", "X", "p", "16", "octal", "oct", "o", "8",
	"binary", "b", "2", NULL };
static const unsigned base_of[] = { 10, 10, 10, 10, 10, 10, 16, 16, 16, 16, 16, 16,
	8, 8, 8, 8, 2, 2, 2 };
static const char *const byte_orders[] = { "le", "little", "be", "big", "network", "native",
	NULL };

static bool is_true(const char *v)
{
	return word_of(v, true_words) >= 0;
}

/* An attribute value that must be one of list; fails naming it when not. */
static int checked_word(struct parser *p, const char *key, const char *v,
	const char *const *list)
{
	int i = word_of(v, list);
	if (i < 0)
		fail(p, "unknown %s '%s'", key, v);
	return i;
}

/* An attribute value that must be a decimal number */
static unsigned checked_number(struct parser *p, const char *key, const char *v)
{
	char *end;
	unsigned long n = strtoul(v, &end, 10);
	if (!*v || *end || n > 1u << 20) {
		fail(p, "bad %s '%s'", key, v);
		return 0;
	}
	return (unsigned)n;
}

/* integer { ... } or floating_point { ... } */
static struct ctf_type *number_type(struct parser *p, bool floating)
{
	struct ctf_type *t = new_type(p, floating ? CTF_FLOAT : CTF_INT);
	unsigned exp_dig = 0, mant_dig = 0;
	bool align_given = false;
	expect(p, "{");
	while (t && !p->failed && !accept(p, "}")) {
		char buf[256];
		const char *k = ident(p);
		expect(p, "=");
		const char *v = value_text(p, buf, sizeof buf);
		expect(p, ";");
		if (!strcmp(k, "size"))
			t->size = checked_number(p, k, v);
		else if (!strcmp(k, "align")) {
			t->align = checked_number(p, k, v);
			align_given = true;
		} else if (!strcmp(k, "signed")) {
			t->is_signed = is_true(v);
			if (!t->is_signed && word_of(v, false_words) < 0)
				fail(p, "unknown signed '%s'", v);
		} else if (!strcmp(k, "encoding"))
			t->text = checked_word(p, k, v, encodings) > 0;
		else if (!strcmp(k, "base")) {
			int b = checked_word(p, k, v, bases);
			t->base = b < 0 ? 10 : base_of[b];
		} else if (!strcmp(k, "byte_order")) {
			int o = checked_word(p, k, v, byte_orders);
			t->big_endian = (o >= 2 && o <= 4) || (o == 5 && p->meta->big_endian);
		}
		else if (!strcmp(k, "map"))
			t->maps_clock = !strncmp(v, "clock.", 6);
		else if (!strcmp(k, "exp_dig"))
			exp_dig = checked_number(p, k, v);
		else if (!strcmp(k, "mant_dig"))
			mant_dig = checked_number(p, k, v);
		else
			fail(p, "unsupported attribute '%s' of an %s", k,
				floating ? "floating_point" : "integer");
	}
	if (t && floating)
		t->size = exp_dig + mant_dig;
	if (t && !align_given && t->size % 8)
		t->align = 1;
	if (t && !p->failed && (t->size == 0 || t->size > 64 || !t->align ||
				(t->align & (t->align - 1))))
		fail(p, "unsupported %s: size %u, align %u", floating ? "float" : "integer", t->size,
			t->align);
	if (t && !p->failed && floating && t->size != 32 && t->size != 64)
		fail(p, "unsupported float of %u bits", t->size);
	if (t && !p->failed && t->big_endian && (t->size % 8 || t->align % 8))
		fail(p, "unsupported big-endian bit field of %u bits", t->size);
	return t;
}

static void field_list(struct parser *p, struct ctf_type *t);

/* struct [NAME] [{ fields }] [align(N)] */
static struct ctf_type *struct_type(struct parser *p)
{
	char name[300] = "";
	if (peek(p)->kind == T_IDENT)
		snprintf(name, sizeof name, "struct %s", ident(p));
	if (!is(p, "{")) {
		struct ctf_type *t = name[0] ? lookup(p, name) : NULL;
		if (!t)
			fail(p, "unknown type '%s'", name[0] ? name : "struct");
		return t;
	}
	struct ctf_type *t = new_type(p, CTF_STRUCT);
	if (!t)
		return NULL;
	t->align = 1;
	expect(p, "{");
	field_list(p, t);
	if (accept(p, "align")) {
		expect(p, "(");
		int64_t a = number(p); /* bits */
		expect(p, ")");
		if (a <= 0 || a > 4096 || (a & (a - 1)))
			fail(p, "unsupported alignment %" PRId64, a);
		else if ((unsigned)a > t->align)
			t->align = (unsigned)a;
	}
	if (name[0])
		define(p, name, t);
	return t;
}

/* variant [NAME] [<tag>] { options } */
static struct ctf_type *variant_type(struct parser *p)
{
	char name[300] = "";
	if (peek(p)->kind == T_IDENT)
		snprintf(name, sizeof name, "variant %s", ident(p));
	struct ctf_type *t = new_type(p, CTF_VARIANT);
	if (!t)
		return NULL;
	t->align = 1;
	if (accept(p, "<")) {
		char buf[256];
		const char *tag = value_text(p, buf, sizeof buf);
		const char *last = strrchr(tag, '.');
		last = last ? last + 1 : tag;
		t->tag_name = arena_strndup(&p->arena, last, strlen(last));
		expect(p, ">");
	}
	if (!is(p, "{")) {
		struct ctf_type *named = lookup(p, name);
		if (!named || !t->tag_name) {
			fail(p, "unknown or untagged variant '%s'", name);
			return NULL;
		}
		char *tag = t->tag_name;
		*t = *named; /* the same options, this tag */
		t->tag_name = tag;
		return t;
	}
	expect(p, "{");
	field_list(p, t);
	if (name[0])
		define(p, name, t);
	return t;
}

/* enum [NAME] : INTEGER_TYPE { LABEL [= N [... M]], ... } */
static struct ctf_type *enum_type(struct parser *p)
{
	char name[300] = "";
	if (peek(p)->kind == T_IDENT)
		snprintf(name, sizeof name, "enum %s", ident(p));
	if (!is(p, ":") && !is(p, "{")) {
		struct ctf_type *t = lookup(p, name);
		if (!t)
			fail(p, "unknown type '%s'", name);
		return t;
	}
	struct ctf_type *base = NULL;
	if (accept(p, ":"))
		base = type_specifier(p);
	else
		base = lookup(p, "int");
	if (!base || base->kind != CTF_INT) {
		fail(p, "an enumeration needs an integer type");
		return NULL;
	}
	struct ctf_type *t = new_type(p, CTF_INT);
	if (!t)
		return NULL;
	*t = *base;
	struct ctf_enum_range *r = NULL;
	size_t n = 0, cap = 0;
	int64_t next = 0;
	expect(p, "{");
	while (!p->failed && !accept(p, "}")) {
		const struct token *tok = peek(p);
		if (tok->kind != T_IDENT && tok->kind != T_STRING) {
			fail(p, "expected an enumeration label");
			break;
		}
		p->pos++;
		int64_t lo = next, hi = next;
		if (accept(p, "=")) {
			lo = hi = number(p);
			if (accept(p, "..."))
				hi = number(p);
		}
		if (hi == INT64_MAX || lo > hi) {
			fail(p, "unsupported enumeration range");
			break;
		}
		next = hi + 1;
		if (!VEC_ROOM(r, n, cap)) {
			fail(p, "out of memory");
			break;
		}
		r[n++] = (struct ctf_enum_range){ (char *)tok->text, lo, hi };
		if (!accept(p, ",")) {
			expect(p, "}");
			break;
		}
	}
	t->ranges = arena_alloc(&p->arena, (n + 1) * sizeof *t->ranges);
	if (t->ranges && n)
		memcpy(t->ranges, r, n * sizeof *r);
	t->n_ranges = n;
	free(r);
	if (name[0])
		define(p, name, t);
	return t;
}

static struct ctf_type *string_type(struct parser *p)
{
	struct ctf_type *t = new_type(p, CTF_STRING);
	if (accept(p, "{")) {
		while (!p->failed && !accept(p, "}")) {
			char buf[64];
			const char *k = ident(p);
			expect(p, "=");
			const char *v = value_text(p, buf, sizeof buf);
			expect(p, ";");
			if (!p->failed && strcmp(k, "encoding"))
				fail(p, "unsupported attribute '%s' of a string", k);
			else if (!p->failed)
				checked_word(p, k, v, encodings);
		}
	}
	return t;
}

static bool is_keyword_type(const struct parser *p)
{
	static const char *const kw[] = { "integer", "floating_point", "string", "struct", "enum",
		"variant" };
	for (size_t i = 0; i < sizeof kw / sizeof *kw; i++)
		if (is(p, kw[i]))
			return true;
	return false;
}

#define MAX_DEPTH 32

static struct ctf_type *type_specifier_at(struct parser *p);

static struct ctf_type *type_specifier(struct parser *p)
{
	if (++p->depth > MAX_DEPTH) {
		fail(p, "unsupported: types nested more than %d deep", MAX_DEPTH);
		p->depth--;
		return NULL;
	}
	struct ctf_type *t = type_specifier_at(p);
	p->depth--;
	return t;
}

static struct ctf_type *type_specifier_at(struct parser *p)
{
	if (accept(p, "integer"))
		return number_type(p, false);
	if (accept(p, "floating_point"))
		return number_type(p, true);
	if (accept(p, "string"))
		return string_type(p);
	if (accept(p, "struct"))
		return struct_type(p);
	if (accept(p, "enum"))
		return enum_type(p);
	if (accept(p, "variant"))
		return variant_type(p);
	/* an alias: one or more names ("unsigned long") */
	char name[256] = "";
	size_t n = 0;
	while (peek(p)->kind == T_IDENT && n < sizeof name) {
		n += (size_t)snprintf(name + n, sizeof name - n, "%s%s", n ? " " : "", peek(p)->text);
		p->pos++;
	}
	struct ctf_type *t = lookup(p, name);
	if (!t)
		fail(p, "unknown type '%s'", name);
	return t;
}

/* [N] and [length] after a declarator: arrays and sequences, outermost
 * first. */
static struct ctf_type *declarator_suffix(struct parser *p, struct ctf_type *t)
{
	if (!accept(p, "["))
		return t;
	if (++p->depth > MAX_DEPTH) {
		fail(p, "unsupported: arrays nested more than %d deep", MAX_DEPTH);
		return NULL;
	}
	struct ctf_type *a = new_type(p, CTF_ARRAY);
	if (!a)
		return NULL;
	if (peek(p)->kind == T_NUMBER) {
		a->length = (uint64_t)number(p);
	} else {
		char buf[256];
		const char *len = value_text(p, buf, sizeof buf);
		const char *last = strrchr(len, '.');
		last = last ? last + 1 : len;
		a->kind = CTF_SEQUENCE;
		a->length_name = arena_strndup(&p->arena, last, strlen(last));
	}
	expect(p, "]");
	a->element = declarator_suffix(p, t);
	p->depth--;
	if (a->element)
		a->align = a->element->align;
	return a;
}

/* Whether integers or floats of type m lie whole in bytes wherever a
 * byte-aligned structure puts them. */
static bool byte_sized(const struct ctf_type *m)
{
	return (m->kind == CTF_INT || m->kind == CTF_FLOAT) && !m->big_endian && m->align <= 8 &&
		(m->size == 8 || m->size == 16 || m->size == 32 || m->size == 64);
}

/* A flat structure of byte-sized members (what LTTng-UST writes on x86,
 * where every integer is byte-aligned): each member's place, so that
 * ctf_stream.c reads an event with no alignment or bounds check per
 * member. t->fixed stays NULL when one member does not fit. */
static void plan_fixed(struct parser *p, struct ctf_type *t)
{
	if (!t->flat || !t->n_fields)
		return;
	struct ctf_fixed *x = arena_alloc(&p->arena, t->n_fields * sizeof *x);
	uint64_t at = 0;
	if (!x)
		return;
	for (size_t i = 0; i < t->n_fields; i++) {
		const struct ctf_type *m = t->fields[i].type;
		if (byte_sized(m)) {
			x[i] = (struct ctf_fixed){ (uint32_t)at,
				m->is_signed ? CTF_FIX_SIGNED : CTF_FIX_UNSIGNED, (uint8_t)(m->size / 8), 0 };
			at += m->size / 8;
		} else if (m->kind == CTF_ARRAY && byte_sized(m->element) &&
			   m->length <= UINT32_MAX / 8) {
			bool text = m->element->kind == CTF_INT && m->element->text &&
				m->element->size == 8;
			/* bytes 1: unsigned bytes, a GID (its key is read) */
			bool gid = !text && m->element->kind == CTF_INT && m->element->size == 8 &&
				!m->element->is_signed;
			x[i] = (struct ctf_fixed){ (uint32_t)at, text ? CTF_FIX_TEXT : CTF_FIX_SKIP,
				gid ? 1 : 0, (uint32_t)m->length };
			at += m->length * (m->element->size / 8);
		} else {
			return; /* a string, a sequence, a bit field: read member by member */
		}
		if (at > UINT32_MAX / 8)
			return;
	}
	t->fixed = x;
	t->fixed_bytes = (uint32_t)at;
}

/* The fields of a struct or the options of a variant, up to '}'. A field:
 * TYPE NAME[suffixes]; where an alias TYPE may be several names, the last
 * name being the field's. */
static void field_list(struct parser *p, struct ctf_type *t)
{
	struct ctf_field *f = NULL;
	size_t n = 0, cap = 0;
	while (!p->failed && !accept(p, "}")) {
		struct ctf_type *type;
		const char *name;
		if (is_keyword_type(p)) {
			type = type_specifier(p);
			name = ident(p);
		} else {
			size_t first = p->pos;
			while (peek(p)->kind == T_IDENT)
				p->pos++;
			if (p->pos - first < 2) {
				fail(p, "expected a type and a field name");
				break;
			}
			name = p->toks[p->pos - 1].text;
			char alias[256] = "";
			size_t len = 0;
			for (size_t k = first; k + 1 < p->pos && len < sizeof alias; k++)
				len += (size_t)snprintf(alias + len, sizeof alias - len, "%s%s",
					len ? " " : "", p->toks[k].text);
			if (!(type = lookup(p, alias)))
				fail(p, "unknown type '%s'", alias);
		}
		type = declarator_suffix(p, type);
		expect(p, ";");
		if (p->failed || !type)
			break;
		if (!VEC_ROOM(f, n, cap)) {
			fail(p, "out of memory");
			break;
		}
		f[n++] = (struct ctf_field){ (char *)name, type };
		if (type->align > t->align && t->kind == CTF_STRUCT)
			t->align = type->align;
	}
	t->fields = arena_alloc(&p->arena, (n + 1) * sizeof *t->fields);
	if (t->fields && n)
		memcpy(t->fields, f, n * sizeof *f);
	t->n_fields = n;
	t->flat = t->kind == CTF_STRUCT;
	for (size_t i = 0; i < n; i++) {
		const struct ctf_type *m = f[i].type;
		const struct ctf_type *e = m->kind == CTF_ARRAY || m->kind == CTF_SEQUENCE ?
			m->element : NULL;
		t->flat = t->flat && (m->kind == CTF_INT || m->kind == CTF_FLOAT ||
			m->kind == CTF_STRING ||
			(e && (e->kind == CTF_INT || e->kind == CTF_FLOAT)));
	}
	free(f);
	plan_fixed(p, t);
}

/* ---- blocks --------------------------------------------------------------- */

/* typealias TYPE := NAME...; */
static void typealias(struct parser *p)
{
	struct ctf_type *t = type_specifier(p);
	expect(p, ":=");
	char name[256] = "";
	size_t n = 0;
	while (peek(p)->kind == T_IDENT && n < sizeof name) {
		n += (size_t)snprintf(name + n, sizeof name - n, "%s%s", n ? " " : "", peek(p)->text);
		p->pos++;
	}
	if (!n)
		fail(p, "expected the alias's name");
	expect(p, ";");
	if (!p->failed && t)
		define(p, name, t);
}

/* key = value; or key := TYPE; in a block; calls on_type for ":=" */
struct entry {
	char key[128];
	char buf[512];
	const char *value;   /* "=" */
	struct ctf_type *type; /* ":=" */
};

static bool block_entry(struct parser *p, struct entry *e)
{
	if (accept(p, "}"))
		return false;
	size_t n = 0;
	e->key[0] = '\0';
	do {
		const char *part = ident(p);
		if (n < sizeof e->key)
			n += (size_t)snprintf(e->key + n, sizeof e->key - n, "%s%s", n ? "." : "", part);
	} while (!p->failed && accept(p, "."));
	e->value = NULL;
	e->type = NULL;
	if (accept(p, ":="))
		e->type = type_specifier(p);
	else if (accept(p, "="))
		e->value = value_text(p, e->buf, sizeof e->buf);
	else
		fail(p, "expected '=' or ':=' after '%s'", e->key);
	expect(p, ";");
	return !p->failed;
}

static int hex(char c)
{
	return isdigit((unsigned char)c) ? c - '0' : tolower((unsigned char)c) - 'a' + 10;
}

static void trace_block(struct parser *p)
{
	struct entry e;
	expect(p, "{");
	while (block_entry(p, &e)) {
		if (!strcmp(e.key, "byte_order") && e.value) {
			int o = checked_word(p, "byte_order", e.value, byte_orders);
			if (o == 5)
				fail(p, "the trace's byte_order cannot be 'native'");
			p->meta->big_endian = o >= 2 && o <= 4;
		} else if (!strcmp(e.key, "packet.header") && e.type) {
			p->meta->packet_header = e.type;
		} else if (!strcmp(e.key, "uuid") && e.value) {
			size_t k = 0;
			for (const char *c = e.value; *c && k < 32; c++)
				if (isxdigit((unsigned char)*c)) {
					p->meta->uuid[k / 2] = (uint8_t)(p->meta->uuid[k / 2] << 4 | hex(*c));
					k++;
				}
			p->meta->has_uuid = k == 32;
		} else if (!strcmp(e.key, "major") && e.value && strcmp(e.value, "1")) {
			fail(p, "unsupported CTF major version %s", e.value);
		}
	}
	expect(p, ";");
}

static char *arena_copy(struct parser *p, const char *s)
{
	return arena_strndup(&p->arena, s, strlen(s));
}

static void env_block(struct parser *p)
{
	struct entry e;
	expect(p, "{");
	while (block_entry(p, &e)) {
		if (!strcmp(e.key, "domain") && e.value)
			p->meta->env_domain = arena_copy(p, e.value);
		else if (!strcmp(e.key, "tracer_name") && e.value)
			p->meta->env_tracer = arena_copy(p, e.value);
		else if (!strcmp(e.key, "hostname") && e.value)
			p->meta->env_hostname = arena_copy(p, e.value);
	}
	expect(p, ";");
}

/* A clock's number: an integer (value_text made one of a number), never
 * "nan", "inf" or a name read as 0. */
static int64_t clock_integer(struct parser *p, const char *key, const char *v)
{
	char *end;
	errno = 0;
	long long n = strtoll(v, &end, 10);
	if (!*v || *end || errno) {
		fail(p, "the clock's %s '%s' is not an integer", key, v);
		return 0;
	}
	return n;
}

static void clock_block(struct parser *p)
{
	struct entry e;
	int64_t offset_s = 0, offset = 0;
	expect(p, "{");
	while (block_entry(p, &e)) {
		if (!strcmp(e.key, "freq") && e.value) {
			int64_t freq = clock_integer(p, "freq", e.value);
			if (freq <= 0 && !p->failed)
				fail(p, "the clock's freq %" PRId64 " is not a frequency", freq);
			p->meta->clock_freq = freq > 0 ? (uint64_t)freq : 0;
		} else if (!strcmp(e.key, "offset_s") && e.value)
			offset_s = clock_integer(p, "offset_s", e.value);
		else if (!strcmp(e.key, "offset") && e.value)
			offset = clock_integer(p, "offset", e.value);
	}
	expect(p, ";");
	uint64_t f = p->meta->clock_freq ? p->meta->clock_freq : 1000000000;
	p->meta->clock_freq = f;
	/* in 128 bits: a hostile offset must not overflow */
	__int128 ns = (__int128)offset_s * 1000000000 + (__int128)offset * 1000000000 / f;
	if (ns > INT64_MAX || ns < INT64_MIN)
		fail(p, "unsupported clock offset");
	else
		p->meta->clock_offset_ns = p->meta->epoch_offset_ns = (int64_t)ns;
}

static struct ctf_stream_class *stream_class(struct parser *p, uint64_t id, bool create)
{
	struct ctf_meta *m = p->meta;
	for (size_t i = 0; i < m->n_streams; i++)
		if (m->streams[i].id == id)
			return &m->streams[i];
	if (!create)
		return NULL;
	size_t cap = m->n_streams;
	struct ctf_stream_class *grown = realloc(m->streams, (cap + 1) * sizeof *grown);
	if (!grown) {
		fail(p, "out of memory");
		return NULL;
	}
	m->streams = grown;
	m->streams[m->n_streams] = (struct ctf_stream_class){ .id = id };
	return &m->streams[m->n_streams++];
}

static void stream_block(struct parser *p)
{
	struct entry e;
	struct ctf_stream_class s = { 0 };
	expect(p, "{");
	while (block_entry(p, &e)) {
		if (!strcmp(e.key, "id") && e.value)
			s.id = strtoull(e.value, NULL, 10);
		else if (!strcmp(e.key, "event.header") && e.type)
			s.event_header = e.type;
		else if (!strcmp(e.key, "packet.context") && e.type)
			s.packet_context = e.type;
		else if (!strcmp(e.key, "event.context") && e.type)
			s.event_context = e.type;
	}
	expect(p, ";");
	struct ctf_stream_class *c = p->failed ? NULL : stream_class(p, s.id, true);
	if (c) {
		s.events = c->events;
		s.n_events = c->n_events;
		*c = s;
	}
}

static void event_block(struct parser *p)
{
	struct entry e;
	struct ctf_event_class *ev = arena_alloc(&p->arena, sizeof *ev);
	if (!ev) {
		fail(p, "out of memory");
		return;
	}
	expect(p, "{");
	while (block_entry(p, &e)) {
		if (!strcmp(e.key, "name") && e.value)
			ev->name = arena_copy(p, e.value);
		else if (!strcmp(e.key, "id") && e.value)
			ev->id = strtoull(e.value, NULL, 10);
		else if (!strcmp(e.key, "stream_id") && e.value)
			ev->stream_id = strtoull(e.value, NULL, 10);
		else if (!strcmp(e.key, "fields") && e.type)
			ev->payload = e.type;
		else if (!strcmp(e.key, "context") && e.type)
			ev->context = e.type;
	}
	expect(p, ";");
	if (p->failed)
		return;
	if (!ev->name)
		ev->name = arena_copy(p, "");
	if (!VEC_ROOM(p->events, p->n_events, p->cap_events)) {
		fail(p, "out of memory");
		return;
	}
	p->events[p->n_events++] = ev;
}

/* A block this reader does not need (callsite): skipped whole. */
static void skip_block(struct parser *p)
{
	int depth = 0;
	expect(p, "{");
	for (depth = 1; depth && peek(p)->kind != T_END; p->pos++)
		depth += is(p, "{") - is(p, "}");
	expect(p, ";");
}

static void statement(struct parser *p)
{
	if (accept(p, "typealias"))
		typealias(p);
	else if (accept(p, "trace"))
		trace_block(p);
	else if (accept(p, "env"))
		env_block(p);
	else if (accept(p, "clock"))
		clock_block(p);
	else if (accept(p, "stream"))
		stream_block(p);
	else if (accept(p, "event"))
		event_block(p);
	else if (accept(p, "callsite"))
		skip_block(p);
	else if (is(p, "struct") || is(p, "enum") || is(p, "variant")) {
		type_specifier(p);
		expect(p, ";");
	} else
		fail(p, "unsupported statement '%s'", peek(p)->text ? peek(p)->text : "?");
}

/* How many values an instance of t flattens into, at most. */
static size_t leaves(const struct ctf_type *t)
{
	size_t n = 0;
	if (!t)
		return 0;
	if (t->kind == CTF_STRUCT)
		for (size_t i = 0; i < t->n_fields; i++)
			n += leaves(t->fields[i].type);
	else if (t->kind == CTF_VARIANT)
		for (size_t i = 0; i < t->n_fields; i++)
			n = leaves(t->fields[i].type) > n ? leaves(t->fields[i].type) : n;
	else
		n = 1;
	return n;
}

/* Each event into its stream's table, by id. */
static void place_events(struct parser *p)
{
	for (size_t i = 0; i < p->n_events && !p->failed; i++) {
		struct ctf_event_class *ev = p->events[i];
		if (leaves(ev->payload) > CTF_MAX_VALUES || leaves(ev->context) > CTF_MAX_VALUES / 2) {
			fail(p, "unsupported: event %s has more fields than the native reader keeps (%d)",
				ev->name, CTF_MAX_VALUES);
			return;
		}
		struct ctf_stream_class *s = stream_class(p, ev->stream_id, false);
		if (!s) {
			fail(p, "event %s is in stream %" PRIu64 ", which is not declared", ev->name,
				ev->stream_id);
			return;
		}
		if (ev->id >= s->n_events) {
			size_t n = (size_t)ev->id + 1;
			if (ev->id > 1u << 20) {
				fail(p, "event %s: id %" PRIu64 " is too large", ev->name, ev->id);
				return;
			}
			struct ctf_event_class **grown = realloc(s->events, n * sizeof *grown);
			if (!grown) {
				fail(p, "out of memory");
				return;
			}
			memset(grown + s->n_events, 0, (n - s->n_events) * sizeof *grown);
			s->events = grown;
			s->n_events = n;
		}
		s->events[ev->id] = ev;
	}
}

struct ctf_meta *ctf_tsdl_parse(const char *text, size_t size, char *err, size_t err_size,
	bool *cut)
{
	struct parser p = { .err = err, .err_size = err_size };
	struct ctf_meta *m = calloc(1, sizeof *m);
	struct arena *arena = malloc(sizeof *arena);
	if (!m || !arena) {
		free(m);
		free(arena);
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	p.meta = m;
	m->clock_freq = 1000000000;
	const char *nul = memchr(text, '\0', size);
	if (nul) { /* babeltrace2 would end the text there */
		size_t line = 1;
		for (const char *c = text; c < nul; c++)
			line += *c == '\n';
		snprintf(err, err_size, "metadata:%zu: a NUL byte in the text", line);
		p.failed = true;
	} else if (tokenize(&p, text, size) != 0) {
		if (!p.failed)
			snprintf(err, err_size, "out of memory");
		p.failed = true;
	}
	while (!p.failed && peek(&p)->kind != T_END)
		statement(&p);
	if (!p.failed)
		place_events(&p);
	for (size_t i = 0; !p.failed && i < m->n_streams; i++)
		if (leaves(m->streams[i].event_context) > CTF_MAX_VALUES / 2 ||
		    leaves(m->streams[i].event_header) > CTF_MAX_VALUES ||
		    leaves(m->streams[i].packet_context) + leaves(m->packet_header) > CTF_MAX_VALUES)
			fail(&p, "unsupported: stream %" PRIu64 " has more fields than the native "
				"reader keeps (%d)", m->streams[i].id, CTF_MAX_VALUES);
	if (!p.failed && !m->packet_header)
		fail(&p, "the trace block declares no packet.header");
	free(p.toks);
	free(p.names);
	free(p.events);
	*arena = p.arena;
	m->arena = arena;
	*cut = p.failed && p.cut;
	if (p.failed) {
		ctf_meta_free(m);
		return NULL;
	}
	return m;
}

void ctf_meta_free(struct ctf_meta *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n_streams; i++)
		free(m->streams[i].events);
	free(m->streams);
	if (m->arena)
		arena_free(m->arena);
	free(m->arena);
	free(m);
}

const struct ctf_stream_class *ctf_meta_stream(const struct ctf_meta *m, uint64_t id)
{
	for (size_t i = 0; i < m->n_streams; i++)
		if (m->streams[i].id == id)
			return &m->streams[i];
	return NULL;
}
