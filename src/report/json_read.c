/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json_read.h"
#include "utf8.h"

/* Deeper nesting than any results file needs; it bounds the recursion. */
#define MAX_DEPTH 64

struct parser {
	const char *p, *end, *start;
	char *why;
	size_t whylen;
	int failed;
	int oom; /* failed for want of memory, not for the text */
};

static int fail(struct parser *ps, const char *fmt, ...)
{
	size_t line = 1, col = 1;
	char msg[160];
	va_list ap;

	if (ps->failed)
		return -1;
	for (const char *c = ps->start; c < ps->p; c++) {
		col = *c == '\n' ? 1 : col + 1;
		line += *c == '\n';
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(ps->why, ps->whylen, "line %zu, column %zu: %s", line, col, msg);
	ps->failed = 1;
	return -1;
}

/* Out of memory: said as such, with no place in the text (it is not the text's fault). */
static int out_of_memory(struct parser *ps)
{
	if (!ps->failed)
		snprintf(ps->why, ps->whylen, "out of memory");
	ps->failed = ps->oom = 1;
	return -1;
}

static void skip_space(struct parser *ps)
{
	while (ps->p < ps->end &&
	       (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static int literal(struct parser *ps, const char *word, enum json_type t, struct json *v)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return fail(ps, "unexpected character '%c'", *ps->p);
	ps->p += n;
	v->type = t;
	return 0;
}

static int digits(struct parser *ps)
{
	const char *from = ps->p;

	while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
		ps->p++;
	return ps->p > from ? 0 : fail(ps, "expected a digit");
}

/* The grammar is checked here; strtod then converts exactly what it accepted. */
static int number(struct parser *ps, struct json *v)
{
	const char *from = ps->p;
	char buf[64], *end;

	if (ps->p < ps->end && *ps->p == '-')
		ps->p++;
	if (ps->p < ps->end && *ps->p == '0')
		ps->p++;
	else if (digits(ps))
		return -1;
	if (ps->p < ps->end && *ps->p == '.') {
		ps->p++;
		if (digits(ps))
			return -1;
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
		ps->p++;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		if (digits(ps))
			return -1;
	}
	if ((size_t)(ps->p - from) >= sizeof(buf))
		return fail(ps, "number too long");
	memcpy(buf, from, (size_t)(ps->p - from));
	buf[ps->p - from] = '\0';
	v->type = JSON_NUMBER;
	v->number = strtod(buf, &end);
	if (buf[strspn(buf, "0123456789")] == '\0') {
		errno = 0;
		v->whole = strtoull(buf, &end, 10);
		v->is_whole = errno == 0;
	}
	return 0;
}

static int hex4(struct parser *ps, unsigned *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++, ps->p++) {
		char c = ps->p < ps->end ? *ps->p : '\0';
		unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
			     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
			     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
						    : 16u;

		if (d > 15)
			return fail(ps, "bad \\u escape");
		*out = *out << 4 | d;
	}
	return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A \uXXXX escape, with its low surrogate when it is a high one. */
static int unicode_escape(struct parser *ps, char *o, size_t *len)
{
	unsigned cp, lo;

	if (hex4(ps, &cp))
		return -1;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return fail(ps, "lone low surrogate");
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (ps->end - ps->p < 2 || ps->p[0] != '\\' || ps->p[1] != 'u')
			return fail(ps, "high surrogate without its low half");
		ps->p += 2;
		if (hex4(ps, &lo))
			return -1;
		if (lo < 0xdc00 || lo > 0xdfff)
			return fail(ps, "high surrogate without its low half");
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (cp == 0)
		return fail(ps, "\\u0000 in a string is not supported");
	*len += put_utf8(o + *len, cp);
	return 0;
}

/* Decodes a string; the decoded form is never longer than the text. */
static int string(struct parser *ps, char **out)
{
	const char *from = ++ps->p;
	char *o;
	size_t len = 0;

	while (ps->p < ps->end && *ps->p != '"')
		ps->p += *ps->p == '\\' && ps->p + 1 < ps->end ? 2 : 1;
	if (ps->p >= ps->end)
		return fail(ps, "unterminated string");
	o = malloc((size_t)(ps->p - from) + 1);
	if (!o)
		return out_of_memory(ps);
	for (ps->p = from; *ps->p != '"';) {
		unsigned char c = (unsigned char)*ps->p++;
		const char *simple = "\"\"\\\\//b\bf\fn\nr\rt\t", *s;

		if (c < 0x20) {
			ps->p--;
			free(o);
			return fail(ps, "control character in a string");
		}
		if (c >= 0x80) {
			size_t n = utf8_sequence((const unsigned char *)--ps->p,
						 (const unsigned char *)ps->end);

			if (!n) {
				free(o);
				return fail(ps, "a string that is not UTF-8");
			}
			memcpy(o + len, ps->p, n);
			len += n;
			ps->p += n;
			continue;
		}
		if (c != '\\') {
			o[len++] = (char)c;
			continue;
		}
		c = (unsigned char)*ps->p++;
		if (c == 'u') {
			if (unicode_escape(ps, o, &len)) {
				free(o);
				return -1;
			}
			continue;
		}
		for (s = simple; *s && *s != (char)c; s += 2)
			;
		if (!*s) {
			ps->p--;
			free(o);
			return fail(ps, "bad escape '\\%c'", c);
		}
		o[len++] = s[1];
	}
	ps->p++;
	o[len] = '\0';
	*out = o;
	return 0;
}

static int value(struct parser *ps, struct json *v, int depth);

/* Appends one member; the arrays grow by doubling. NULL: out of memory. */
static struct json *grow(struct parser *ps, struct json *v, size_t *cap)
{
	if (v->n == *cap) {
		size_t c = *cap ? 2 * *cap : 8;
		struct json *items = NULL;
		char **keys;

		if (c <= SIZE_MAX / sizeof(*items))
			items = realloc(v->items, c * sizeof(*items));

		if (!items)
			return out_of_memory(ps), NULL;
		v->items = items;
		if (v->type == JSON_OBJECT) {
			keys = realloc(v->keys, c * sizeof(*keys));
			if (!keys)
				return out_of_memory(ps), NULL;
			v->keys = keys;
		}
		*cap = c;
	}
	memset(&v->items[v->n], 0, sizeof(v->items[0]));
	if (v->type == JSON_OBJECT)
		v->keys[v->n] = NULL;
	return &v->items[v->n++];
}

static int expect(struct parser *ps, char c, const char *what)
{
	skip_space(ps);
	if (ps->p < ps->end && *ps->p == c) {
		ps->p++;
		return 0;
	}
	return ps->p < ps->end ? fail(ps, "expected %s, found '%c'", what, *ps->p)
			       : fail(ps, "expected %s, found the end", what);
}

/* An array or an object: members separated by ',' up to the closing bracket. */
static int container(struct parser *ps, struct json *v, int depth, char close)
{
	size_t cap = 0;

	ps->p++;
	v->type = close == ']' ? JSON_ARRAY : JSON_OBJECT;
	if (depth >= MAX_DEPTH)
		return fail(ps, "nested deeper than %d", MAX_DEPTH);
	skip_space(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return 0;
	}
	for (;;) {
		struct json *m = grow(ps, v, &cap);

		if (!m)
			return -1;
		if (close == '}') {
			skip_space(ps);
			if (ps->p >= ps->end || *ps->p != '"')
				return fail(ps, "expected a member name in quotes");
			if (string(ps, &v->keys[v->n - 1]) || expect(ps, ':', "':'"))
				return -1;
		}
		if (value(ps, m, depth + 1))
			return -1;
		skip_space(ps);
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return 0;
		}
		if (expect(ps, ',', close == ']' ? "',' or ']'" : "',' or '}'"))
			return -1;
	}
}

static int value(struct parser *ps, struct json *v, int depth)
{
	skip_space(ps);
	if (ps->p >= ps->end)
		return fail(ps, "expected a value, found the end");
	switch (*ps->p) {
	case '{':
		return container(ps, v, depth, '}');
	case '[':
		return container(ps, v, depth, ']');
	case '"':
		v->type = JSON_STRING;
		return string(ps, &v->string);
	case 't':
		return literal(ps, "true", JSON_TRUE, v);
	case 'f':
		return literal(ps, "false", JSON_FALSE, v);
	case 'n':
		return literal(ps, "null", JSON_NULL, v);
	default:
		if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
			return number(ps, v);
		return fail(ps, "unexpected character '%c'", *ps->p);
	}
}

static void free_members(struct json *v)
{
	for (size_t i = 0; i < v->n; i++) {
		free_members(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->string);
}

struct json *json_parse(const char *text, size_t len, char *why, size_t whylen)
{
	struct parser ps = { text, text + len, text, why, whylen, 0, 0 };
	struct json *v = calloc(1, sizeof(*v));

	if (!v)
		out_of_memory(&ps);
	else if (value(&ps, v, 0) == 0) {
		skip_space(&ps);
		if (ps.p < ps.end)
			fail(&ps, "unexpected text after the value");
	}
	if (ps.failed) {
		json_free(v);
		errno = ps.oom ? ENOMEM : EINVAL;
		return NULL;
	}
	return v;
}

void json_free(struct json *v)
{
	if (!v)
		return;
	free_members(v);
	free(v);
}

const struct json *json_get(const struct json *obj, const char *key)
{
	const struct json *found = NULL;

	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (obj->keys[i] && strcmp(obj->keys[i], key) == 0)
			found = &obj->items[i];
	return found;
}

const struct json *json_get_type(const struct json *obj, const char *key, enum json_type t)
{
	const struct json *v = json_get(obj, key);

	return v && v->type == t ? v : NULL;
}
