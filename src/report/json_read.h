/* SPDX-License-Identifier: MIT */
/*
 * A small JSON reader (RFC 8259) for copyperf's own results files: the whole
 * text parsed into a tree.  Written here rather than linked from a library so
 * the command keeps building, static and cross, with nothing but a C library.
 */
#ifndef COPYPERF_JSON_READ_H
#define COPYPERF_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum json_type { JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	double number;      /* JSON_NUMBER */
	/*
	 * JSON_NUMBER written as digits alone (no sign, fraction or exponent) that
	 * a uint64_t holds: its exact value, which a double loses past 2^53 (seeds).
	 */
	bool is_whole;
	uint64_t whole;
	char *string;       /* JSON_STRING: decoded UTF-8; may hold no NUL only if \u0000 absent */
	size_t n;           /* JSON_ARRAY, JSON_OBJECT: members */
	struct json *items; /* their values, in the order written */
	char **keys;        /* JSON_OBJECT: their names */
};

/*
 * Parses len bytes of text.  Returns the tree (free it with json_free), or
 * NULL with a one-line reason such as "line 3, column 7: expected ','" in why
 * and errno EINVAL, or "out of memory" and errno ENOMEM.
 */
struct json *json_parse(const char *text, size_t len, char *why, size_t whylen);
void json_free(struct json *v);

/* The value of key in an object (the last one if repeated), or NULL. */
const struct json *json_get(const struct json *obj, const char *key);
/* Typed look-ups: NULL unless the member exists with that type. */
const struct json *json_get_type(const struct json *obj, const char *key, enum json_type t);

#endif
