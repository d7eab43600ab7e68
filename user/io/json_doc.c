// SPDX-License-Identifier: GPL-2.0-only
/*
 * json_doc.c - the one strict reading of a JSON document for every reader
 * of pagehop's own files: json-c parses, then a scan against RFC 8259's
 * grammar refuses what json-c still takes (NaN, lone surrogates, keys
 * given twice...); and the numbers read out of it, exactly or not at all.
 */
#include "json_doc.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 2^53: beyond it an integer is not held exactly, and json-c saturates at 2^64 - 1. */
#define JSON_INT_EXACT 9007199254740992.0

bool json_number(json_object *o, double *v)
{
	if (json_object_is_type(o, json_type_int)) {
		*v = json_object_get_double(o);
		return fabs(*v) <= JSON_INT_EXACT;
	}
	if (json_object_is_type(o, json_type_double)) {
		*v = json_object_get_double(o);
		return isfinite(*v);
	}
	return false;
}

bool json_int(json_object *o, int64_t lo, int64_t hi, int64_t *v)
{
	double d;

	if (!json_object_is_type(o, json_type_int) || !json_number(o, &d))
		return false;
	*v = json_object_get_int64(o);
	return *v >= lo && *v <= hi;
}

/*
 * Where strict JSON has a quote other than '"': json-c's strict mode still
 * takes a single-quoted key.  The offset of the first "'" outside a
 * string, or len.
 */
static size_t single_quote_at(const char *text, size_t len)
{
	bool in = false;

	for (size_t i = 0; i < len; i++) {
		if (in && text[i] == '\\')
			i++;
		else if (text[i] == '"')
			in = !in;
		else if (!in && text[i] == '\'')
			return i;
	}
	return len;
}

/*
 * What json-c's strict mode still takes and RFC 8259 does not, found by a
 * second reading of a document json-c took: NaN, Infinity, "1." and "1.e5";
 * a number a double cannot hold (1e999, json-c's inf); a control character
 * inside a string; a lone UTF-16 surrogate in an escape; nesting deeper
 * than JSON_MAX_DEPTH; and an object with one key twice, of which json-c
 * keeps the last, so that a reader takes one of two values that disagree
 * without a word.
 */
#define JSON_MAX_DEPTH 32	/* json-c's own default; pagehop writes fewer than 8 */

struct jscan {
	const char *text, *p, *at;	/* at: where the fault is */
	char *why;
	size_t whylen;
};

/* One key of an object as decoded (escapes resolved), and where it is. */
struct jkey {
	char *s;
	size_t len;
	const char *at;
};

static bool jfail(struct jscan *js, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool jfail(struct jscan *js, const char *at, const char *fmt, ...)
{
	va_list ap;

	js->at = at;
	va_start(ap, fmt);
	vsnprintf(js->why, js->whylen, fmt, ap);
	va_end(ap);
	return false;
}

/* 1-based line and column of at. */
static void jplace(const char *text, const char *at, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (const char *q = text; q < at && *q; q++) {
		if (*q == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static void jspace(struct jscan *js)
{
	while (*js->p == ' ' || *js->p == '\t' || *js->p == '\n' || *js->p == '\r')
		js->p++;
}

static int hex4(const char *s)
{
	int v = 0;

	for (int i = 0; i < 4; i++) {
		int c = (unsigned char)s[i];

		if (!isxdigit(c))
			return -1;
		v = v * 16 + (isdigit(c) ? c - '0' : tolower(c) - 'a' + 10);
	}
	return v;
}

static void put_utf8(char **buf, size_t *len, size_t *cap, unsigned cp)
{
	char b[4];
	int n;

	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	if (*len + (size_t)n + 1 > *cap) {
		*cap = (*len + (size_t)n + 1) * 2;
		*buf = xrealloc(*buf, *cap);
	}
	memcpy(*buf + *len, b, (size_t)n);
	*len += (size_t)n;
	(*buf)[*len] = '\0';
}

/* A string at js->p (on its '"'); with out, its decoded bytes (malloc'd). */
static bool jstring(struct jscan *js, char **out, size_t *outlen)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	const char *q = js->p + 1;

	for (;;) {
		unsigned char c = (unsigned char)*q;
		const char *at = q;
		unsigned cp;

		if (c == '"')
			break;
		if (!c) {
			free(buf);
			return jfail(js, js->p, "a string that does not end");
		}
		if (c < 0x20) {
			free(buf);
			return jfail(js, at, "control character 0x%02x inside a string; JSON writes it as an escape", c);
		}
		if (c != '\\') {
			cp = c;
			q++;
			if (out && c >= 0x80) {
				/* Bytes as they are: the text's encoding was read_text's to check. */
				if (len + 2 > cap) {
					cap = (len + 2) * 2;
					buf = xrealloc(buf, cap);
				}
				buf[len++] = (char)c;
				buf[len] = '\0';
				continue;
			}
		} else {
			int h, l;

			switch (q[1]) {
			case '"': case '\\': case '/':
				cp = (unsigned char)q[1];
				break;
			case 'b': cp = '\b'; break;
			case 'f': cp = '\f'; break;
			case 'n': cp = '\n'; break;
			case 'r': cp = '\r'; break;
			case 't': cp = '\t'; break;
			case 'u':
				h = hex4(q + 2);
				if (h < 0) {
					free(buf);
					return jfail(js, at, "a \\u escape without four hex digits");
				}
				cp = (unsigned)h;
				if (h >= 0xdc00 && h <= 0xdfff) {
					free(buf);
					return jfail(js, at, "\\u%04x, the second half of a UTF-16 surrogate pair, alone", (unsigned)h);
				}
				if (h >= 0xd800 && h <= 0xdbff) {
					l = q[6] == '\\' && q[7] == 'u' ? hex4(q + 8) : -1;
					if (l < 0xdc00 || l > 0xdfff) {
						free(buf);
						return jfail(js, at, "\\u%04x, the first half of a UTF-16 surrogate pair, alone", (unsigned)h);
					}
					cp = 0x10000 + (((unsigned)h - 0xd800) << 10) + ((unsigned)l - 0xdc00);
					q += 6;
				}
				q += 4;
				break;
			default:
				free(buf);
				return jfail(js, at, "an unknown escape in a string; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX");
			}
			q += 2;
		}
		if (out)
			put_utf8(&buf, &len, &cap, cp);
	}
	js->p = q + 1;
	if (out) {
		*out = buf ? buf : xstrdup("");
		*outlen = len;
	}
	return true;
}

/* A number at js->p, RFC 8259's grammar, that a double holds. */
static bool jnumber(struct jscan *js)
{
	const char *s = js->p, *q = s;
	double v;

	if (*q == '-')
		q++;
	if (*q == '0')
		q++;
	else if (*q >= '1' && *q <= '9')
		while (isdigit((unsigned char)*q))
			q++;
	else if (!strncmp(q, "Infinity", 8))
		return jfail(js, s, "-Infinity, which JSON has no number for");
	else
		return jfail(js, s, "a number without digits");
	if (*q == '.') {
		if (!isdigit((unsigned char)q[1]))
			return jfail(js, s, "a number with no digit after its decimal point");
		for (q++; isdigit((unsigned char)*q); q++)
			;
	}
	if (*q == 'e' || *q == 'E') {
		q++;
		if (*q == '+' || *q == '-')
			q++;
		if (!isdigit((unsigned char)*q))
			return jfail(js, s, "a number with no digit in its exponent");
		while (isdigit((unsigned char)*q))
			q++;
	}
	/* The grammar is checked: strtod reads just this number. */
	v = strtod(s, NULL);
	if (!isfinite(v)) {
		char copy[32];
		size_t n = (size_t)(q - s);

		snprintf(copy, sizeof(copy), "%.*s%s", (int)(n > 24 ? 24 : n), s, n > 24 ? "..." : "");
		return jfail(js, s, "the number %s is beyond what a double holds", copy);
	}
	js->p = q;
	return true;
}

static int jkey_cmp(const void *a, const void *b)
{
	const struct jkey *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->s, y->s, n);

	if (c)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

static bool jvalue(struct jscan *js, int depth);

/*
 * After a member of an object or array: 1 past a ',' (another follows),
 * 0 past close (the end), or -1 with the fault recorded.
 */
static int jnext(struct jscan *js, char close, const char *what)
{
	jspace(js);
	if (*js->p == ',' || *js->p == close)
		return *js->p++ == ',';
	jfail(js, js->p, "expected ',' or '%c' in %s", close, what);
	return -1;
}

/* Past the opening bracket at js->p: true, and past the closing one too, when it is empty. */
static bool jempty(struct jscan *js, char close)
{
	js->p++;
	jspace(js);
	if (*js->p != close)
		return false;
	js->p++;
	return true;
}

/* An object at js->p (on its '{'): its members, and no key twice. */
static bool jobject(struct jscan *js, int depth)
{
	struct jkey *keys = NULL;
	int nkeys = 0, next;
	bool ok = true;

	if (jempty(js, '}'))
		return true;
	for (;;) {
		struct jkey *k;

		jspace(js);
		if (*js->p != '"') {
			ok = jfail(js, js->p, "expected a quoted key");
			break;
		}
		k = xappend(&keys, &nkeys, sizeof(*keys));
		k->at = js->p;
		k->s = NULL;
		if (!jstring(js, &k->s, &k->len)) {
			ok = false;
			break;
		}
		jspace(js);
		if (*js->p != ':') {
			ok = jfail(js, js->p, "expected ':' after a key");
			break;
		}
		js->p++;
		if (!jvalue(js, depth)) {
			ok = false;
			break;
		}
		next = jnext(js, '}', "an object");
		if (next <= 0) {
			ok = next == 0;
			break;
		}
	}
	if (ok && nkeys > 1) {
		const struct jkey *twice = NULL;

		/* By key, then place: of each key's places, the second is the fault. */
		qsort(keys, (size_t)nkeys, sizeof(*keys), jkey_cmp);
		for (int i = 1; i < nkeys; i++)
			if (keys[i].len == keys[i - 1].len && !memcmp(keys[i].s, keys[i - 1].s, keys[i].len) &&
			    (!twice || keys[i].at < twice->at))
				twice = &keys[i];
		if (twice) {
			const struct jkey *first = twice - 1;
			char show[80];
			int line, col;

			while (first > keys && first[-1].len == twice->len &&
			       !memcmp(first[-1].s, twice->s, twice->len))
				first--;
			jplace(js->text, first->at, &line, &col);
			ok = jfail(js, twice->at, "key \"%s\" twice in one object, first at line %d column %d",
				   ph_shown(twice->s, 60, show, sizeof(show)), line, col);
		}
	}
	for (int i = 0; i < nkeys; i++)
		free(keys[i].s);
	free(keys);
	return ok;
}

static bool jvalue(struct jscan *js, int depth)
{
	static const char *const words[] = { "true", "false", "null" };
	const char *q;

	jspace(js);
	q = js->p;
	if (*q == '{' || *q == '[') {
		if (depth >= JSON_MAX_DEPTH)
			return jfail(js, q, "arrays and objects nested deeper than %d", JSON_MAX_DEPTH);
		if (*q == '{')
			return jobject(js, depth + 1);
		if (jempty(js, ']'))
			return true;
		for (;;) {
			int next;

			if (!jvalue(js, depth + 1))
				return false;
			next = jnext(js, ']', "an array");
			if (next <= 0)
				return next == 0;
		}
	}
	if (*q == '"')
		return jstring(js, NULL, NULL);
	if (*q == '-' || isdigit((unsigned char)*q))
		return jnumber(js);
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (!strncmp(q, words[i], strlen(words[i]))) {
			js->p += strlen(words[i]);
			return true;
		}
	if (!strncmp(q, "NaN", 3) || !strncmp(q, "Infinity", 8))
		return jfail(js, q, "%s, which JSON has no number for", *q == 'N' ? "NaN" : "Infinity");
	return jfail(js, q, "expected a value");
}

int json_doc_parse(const char *text, json_object **root, int *line, char *why, size_t whylen)
{
	struct json_tokener *tok = json_tokener_new();
	size_t len = strlen(text), end, quote;
	enum json_tokener_error jerr;
	const char *fault = NULL;
	struct jscan js = { .text = text, .p = text, .why = why, .whylen = whylen };

	*why = '\0';
	/* Trailing text is told apart below, by name. */
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS);
	*root = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	/* A bare literal ("null", "1") is whole only once json-c sees the end. */
	if (jerr == json_tokener_continue) {
		*root = json_tokener_parse_ex(tok, "", 1);
		if (json_tokener_get_error(tok) == json_tokener_success)
			jerr = json_tokener_success;
		else
			*root = NULL;
	}
	json_tokener_free(tok);
	if (jerr == json_tokener_success)
		while (end < len && isspace((unsigned char)text[end]))
			end++;
	quote = single_quote_at(text, end < len ? end : len);
	if (jerr == json_tokener_continue)
		snprintf(why, whylen, "the JSON ends early");
	else if (jerr != json_tokener_success)
		snprintf(why, whylen, "%s", json_tokener_error_desc(jerr));
	else if (end < len)
		snprintf(why, whylen, "text after the JSON object");
	else if (quote < end)
		snprintf(why, whylen, "a single quote outside a string; JSON quotes with '\"' only");
	else if (!*root)
		snprintf(why, whylen, "the JSON literal null, not an object");
	else if (!json_object_is_type(*root, json_type_object))
		snprintf(why, whylen, "not a JSON object");
	else if (!jvalue(&js, 0))
		fault = js.at;
	if (!*why)
		return 0;
	if (quote < end)
		end = quote;
	*line = 1;
	if (fault) {
		int col;

		char what[JSON_WHY_MAX];

		jplace(text, fault, line, &col);
		/* The column too: a JSON document may be one long line. */
		snprintf(what, sizeof(what), "%s", why);
		snprintf(why, whylen, "column %d: %s", col, what);
	} else {
		for (size_t i = 0; i < end && i < len; i++)
			*line += text[i] == '\n';
	}
	json_object_put(*root);
	*root = NULL;
	return -EINVAL;
}

/*
 * Half a unit of the last digit a JSON number was written with: how far it
 * may be from what was measured (json-c keeps a parsed number's text).
 * "90.0" 0.05, "140.25" 0.005, "7" 0.5, "1.50e2" 0.5.
 */
double json_rounding(json_object *x)
{
	const char *s = json_object_get_string(x), *p;
	long decimals = 0, exp10 = 0;

	p = strchr(s, '.');
	if (p)
		for (p++; isdigit((unsigned char)*p); p++)
			decimals++;
	p = strpbrk(s, "eE");
	if (p) {
		exp10 = strtol(p + 1, NULL, 10);
		/* The number is finite, so its exponent is small; bound what a long one says. */
		exp10 = exp10 < -1000 ? -1000 : exp10 > 1000 ? 1000 : exp10;
	}
	if (decimals > 1000)
		decimals = 1000;
	return 0.5 * pow(10, (double)(exp10 - decimals));
}
