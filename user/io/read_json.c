// SPDX-License-Identifier: GPL-2.0-only
/*
 * read_json.c - pagehop's own JSON, checked as strictly as a CSV: every
 * number where a number must be, every cell's CI holding its median.
 */
#include "read_json.h"
#include "acpi_slit.h"
#include "provenance.h"
#include "read_text.h"
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

#define MAX_INITIATORS 256	/* of one HMAT entry: what hmat_compare() takes */

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

static int json_ids(const char *path, const char *key, const char *what,
		    json_object *arr, int **ids, int *n, char *err, size_t errlen)
{
	size_t len;

	if (!arr || !json_object_is_type(arr, json_type_array))
		return read_err(err, errlen, "%s: %s.%s: expected an array of node ids", path, key, what);
	len = json_object_array_length(arr);
	if (len == 0 || len > PH_MAX_NODES)
		return read_err(err, errlen, "%s: %s.%s: %zu entries; expected 1 to %d node ids",
				path, key, what, len, PH_MAX_NODES);
	*ids = xcalloc(len, sizeof(int));
	*n = (int)len;
	for (size_t i = 0; i < len; i++) {
		int64_t v;

		if (!json_int(json_object_array_get_idx(arr, i), 0, PH_MAX_NODES - 1, &v))
			return read_err(err, errlen, "%s: %s.%s[%zu]: expected a node id, 0 to %d",
					path, key, what, i, PH_MAX_NODES - 1);
		for (size_t j = 0; j < i; j++)
			if ((*ids)[j] == v)
				return read_err(err, errlen, "%s: %s.%s: node %d twice; expected each node once",
						path, key, what, (int)v);
		(*ids)[i] = (int)v;
	}
	return 0;
}

/*
 * {"metric": ..., "rows": [...], "columns": [...], "values": [[...]]}.
 * *out stays NULL when the key is absent or null.
 */
static int json_matrix(const char *path, json_object *root, const char *key,
		       enum ph_metric want, struct ph_nmatrix **out, char *err,
		       size_t errlen)
{
	json_object *o, *v;
	char show[80];
	int *rows = NULL, *cols = NULL, nr = 0, nc = 0, ret;
	struct ph_nmatrix *m = NULL;
	const char *metric;

	*out = NULL;
	if (!json_object_object_get_ex(root, key, &o) || !o)
		return 0;
	if (!json_object_is_type(o, json_type_object))
		return read_err(err, errlen, "%s: %s: expected an object with metric, rows, columns and values", path, key);
	if (!json_object_object_get_ex(o, "metric", &v) || !json_object_is_type(v, json_type_string))
		return read_err(err, errlen, "%s: %s.metric: expected the string \"%s\"", path, key, metric_name(want));
	metric = json_object_get_string(v);
	if (metric_parse(metric) != want)
		return read_err(err, errlen, "%s: %s.metric: \"%s\"; expected \"%s\"", path, key,
				ph_shown(metric, 60, show, sizeof(show)),
				metric_name(want));
	json_object_object_get_ex(o, "rows", &v);
	ret = json_ids(path, key, "rows", v, &rows, &nr, err, errlen);
	if (ret)
		goto out;
	json_object_object_get_ex(o, "columns", &v);
	ret = json_ids(path, key, "columns", v, &cols, &nc, err, errlen);
	if (ret)
		goto out;
	if (!json_object_object_get_ex(o, "values", &v) || !json_object_is_type(v, json_type_array) ||
	    (int)json_object_array_length(v) != nr) {
		ret = read_err(err, errlen, "%s: %s.values: expected an array of %d rows", path, key, nr);
		goto out;
	}
	m = nmatrix_new(want, nr, rows, nc, cols);
	for (int r = 0; r < nr; r++) {
		json_object *row = json_object_array_get_idx(v, r);

		if (!json_object_is_type(row, json_type_array) ||
		    (int)json_object_array_length(row) != nc) {
			ret = read_err(err, errlen, "%s: %s.values[%d]: expected an array of %d numbers or nulls",
				       path, key, r, nc);
			goto out;
		}
		for (int c = 0; c < nc; c++) {
			json_object *x = json_object_array_get_idx(row, c);
			double d;

			if (!x)
				continue;	/* null: missing */
			if (!json_number(x, &d) || d <= 0) {
				ret = read_err(err, errlen, "%s: %s.values[%d][%d]: expected a positive number or null",
					       path, key, r, c);
				goto out;
			}
			m->val[r * nc + c] = d;
		}
	}
	*out = m;
	m = NULL;
out:
	nmatrix_free(m);
	free(rows);
	free(cols);
	return ret;
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

/* One bound of a CI, as text for a message: "-" when absent. */
static const char *bound_text(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		return "-";
	snprintf(buf, len, "%g", v);
	return buf;
}

/*
 * The CIs, sample counts and missed targets of one figure, from "cells";
 * mo is the figure's matrix object, whose values the cells must agree with.
 * not_met, when not NULL, counts the cells whose CI target was missed.
 */
static int json_cells(const char *path, json_object *root, const char *figure,
		      json_object *mo, struct ph_nmatrix *m, int *not_met, char *err,
		      size_t errlen)
{
	json_object *cells, *values;
	size_t n;

	if (not_met)
		*not_met = 0;
	if (!json_object_object_get_ex(root, "cells", &cells) || !cells)
		return 0;
	if (!json_object_is_type(cells, json_type_array))
		return read_err(err, errlen, "%s: cells: expected an array of objects", path);
	json_object_object_get_ex(mo, "values", &values);
	n = json_object_array_length(cells);
	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(cells, i), *v, *x;
		double lo_r = 0, hi_r = 0, val_r = 0, med, med_r;
		char b1[32], b2[32];
		int64_t cpu, mem;
		int r, col, k;
		double d;

		if (!json_object_is_type(c, json_type_object))
			return read_err(err, errlen, "%s: cells[%zu]: expected an object", path, i);
		if (!json_object_object_get_ex(c, "figure", &v) ||
		    !json_object_is_type(v, json_type_string))
			return read_err(err, errlen, "%s: cells[%zu].figure: expected a string such as \"latency_ns\"",
					path, i);
		if (strcmp(json_object_get_string(v), figure))
			continue;
		if (!json_object_object_get_ex(c, "cpu_node", &v) || !json_int(v, 0, INT_MAX, &cpu) ||
		    !json_object_object_get_ex(c, "mem_node", &v) || !json_int(v, 0, INT_MAX, &mem))
			return read_err(err, errlen, "%s: cells[%zu]: expected cpu_node and mem_node, node ids",
					path, i);
		r = nmatrix_row(m, (int)cpu);
		col = nmatrix_col(m, (int)mem);
		if (r < 0 || col < 0)
			return read_err(err, errlen, "%s: cells[%zu]: node %d to %d is not a cell of %s; expected a row and a column of it",
					path, i, (int)cpu, (int)mem, figure);
		k = r * m->ncols + col;
		if (json_object_object_get_ex(c, "ci_low", &v) && v) {
			if (!json_number(v, &d))
				return read_err(err, errlen, "%s: cells[%zu].ci_low: expected a number or null", path, i);
			m->ci_lo[k] = d;
			lo_r = json_rounding(v);
		}
		if (json_object_object_get_ex(c, "ci_high", &v) && v) {
			if (!json_number(v, &d))
				return read_err(err, errlen, "%s: cells[%zu].ci_high: expected a number or null", path, i);
			m->ci_hi[k] = d;
			hi_r = json_rounding(v);
		}
		if (isfinite(m->ci_lo[k]) && isfinite(m->ci_hi[k]) && m->ci_lo[k] > m->ci_hi[k])
			return read_err(err, errlen, "%s: cells[%zu]: ci_low %g above ci_high %g; expected ci_low <= ci_high",
					path, i, m->ci_lo[k], m->ci_hi[k]);
		/* json_matrix checked the shape: values[r][col] exists, a number or null. */
		x = json_object_array_get_idx(json_object_array_get_idx(values, r), col);
		if (x)
			val_r = json_rounding(x);
		/* The median: the cell's, which must be the matrix's value; else that value. */
		med = m->val[k];
		med_r = val_r;
		if (json_object_object_get_ex(c, "median", &v) && v) {
			if (!json_number(v, &med) || med <= 0)
				return read_err(err, errlen, "%s: cells[%zu].median: expected a positive number or null",
						path, i);
			med_r = json_rounding(v);
			if (!isfinite(m->val[k]) || fabs(med - m->val[k]) > med_r + val_r)
				return read_err(err, errlen, "%s: cells[%zu]: median %g; expected the value of %s.values[%d][%d], %s",
						path, i, med, figure, r, col,
						x ? json_object_get_string(x) : "null");
		}
		if (isfinite(med) &&
		    ((isfinite(m->ci_lo[k]) && med < m->ci_lo[k] - lo_r - med_r) ||
		     (isfinite(m->ci_hi[k]) && med > m->ci_hi[k] + hi_r + med_r)))
			return read_err(err, errlen, "%s: cells[%zu]: median %g outside its CI [%s, %s]; expected ci_low <= median <= ci_high",
					path, i, med, bound_text(m->ci_lo[k], b1, sizeof(b1)),
					bound_text(m->ci_hi[k], b2, sizeof(b2)));
		if (json_object_object_get_ex(c, "samples", &v) && v) {
			int64_t s;

			if (!json_int(v, 0, INT_MAX, &s))
				return read_err(err, errlen, "%s: cells[%zu].samples: expected a count", path, i);
			m->samples[k] = (int)s;
		}
		if (json_object_object_get_ex(c, "ci_met", &v) && v &&
		    json_object_is_type(v, json_type_boolean) && !json_object_get_boolean(v)) {
			m->ci_missed[k] = true;
			if (not_met)
				(*not_met)++;
		}
	}
	return 0;
}

/* An HMAT figure: a whole number 0..2^32-1 as the kernel reports it (u32), or -1 when absent or null. */
static int64_t json_opt_u32(json_object *o, const char *key, bool *bad)
{
	json_object *v;
	double d;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return -1;
	if (!json_number(v, &d) || d < 0 || d > UINT32_MAX || d != floor(d)) {
		*bad = true;
		return -1;
	}
	return (int64_t)d;
}

/*
 * An HMAT initiator list as the kernel's node lists read: "0", "0-1,3";
 * node ids below PH_MAX_NODES, each range low-high; "" is none.  Returns the
 * count of nodes named, or -1.
 */
static int node_list_count(const char *s)
{
	int count = 0;

	if (!*s)
		return 0;
	for (;;) {
		int a, b;

		if (!node_id_prefix(&s, &a))
			return -1;
		b = a;
		if (*s == '-') {
			s++;
			if (!node_id_prefix(&s, &b) || b < a)
				return -1;
		}
		count += b - a + 1;
		if (!*s)
			return count;
		if (*s++ != ',')
			return -1;
	}
}

static int json_hmat(const char *path, json_object *root, struct ph_input *in,
		     char *err, size_t errlen)
{
	json_object *arr;
	size_t n;

	if (!json_object_object_get_ex(root, "hmat", &arr) || !arr)
		return 0;
	if (!json_object_is_type(arr, json_type_array))
		return read_err(err, errlen, "%s: hmat: expected an array of objects", path);
	n = json_object_array_length(arr);
	in->hmat = xcalloc(n ? n : 1, sizeof(*in->hmat));
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i), *v;
		struct ph_hmat *h = &in->hmat[i];
		char show[80];
		bool bad = false;
		int64_t node, access = 0;

		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, "node", &v) || !json_int(v, 0, PH_MAX_NODES - 1, &node))
			return read_err(err, errlen, "%s: hmat[%zu]: expected an object with \"node\", a node id 0 to %d",
					path, i, PH_MAX_NODES - 1);
		if (json_object_object_get_ex(o, "access", &v) && v && !json_int(v, 0, 255, &access))
			return read_err(err, errlen, "%s: hmat[%zu].access: expected an access class, 0 or 1", path, i);
		h->target = (int)node;
		h->access = (int)access;
		if (json_object_object_get_ex(o, "initiators", &v) && v) {
			const char *list = json_object_get_string(v);
			size_t len = strlen(list);
			int count;

			if (!json_object_is_type(v, json_type_string))
				return read_err(err, errlen, "%s: hmat[%zu].initiators: expected a string, a node list such as \"0\" or \"0-1,3\"",
						path, i);
			/* Cut to fit, a list would name other nodes: "0,12" as "0,1". */
			if (len >= sizeof(h->initiators))
				return read_err(err, errlen, "%s: hmat[%zu].initiators: %zu characters; expected at most %zu",
						path, i, len, sizeof(h->initiators) - 1);
			count = node_list_count(list);
			if (count < 0)
				return read_err(err, errlen, "%s: hmat[%zu].initiators: '%s'; expected a node list such as \"0\" or \"0-1,3\", node ids 0 to %d",
						path, i, ph_shown(list, 60, show, sizeof(show)), PH_MAX_NODES - 1);
			/* As many as the comparison with the measurement takes (hmat_compare). */
			if (count > MAX_INITIATORS)
				return read_err(err, errlen, "%s: hmat[%zu].initiators: '%s' names %d nodes; expected at most %d",
						path, i, list, count, MAX_INITIATORS);
			memcpy(h->initiators, list, len + 1);
		}
		h->read_latency_ns = json_opt_u32(o, "read_lat_ns", &bad);
		h->write_latency_ns = json_opt_u32(o, "write_lat_ns", &bad);
		h->read_bandwidth_MiBps = json_opt_u32(o, "read_bw_MiBps", &bad);
		h->write_bandwidth_MiBps = json_opt_u32(o, "write_bw_MiBps", &bad);
		if (bad)
			return read_err(err, errlen, "%s: hmat[%zu]: expected read_lat_ns, write_lat_ns, read_bw_MiBps and write_bw_MiBps to be whole numbers 0 to %u, or null",
					path, i, UINT32_MAX);
		in->nhmat++;
	}
	return 0;
}

static char *json_provenance(json_object *root)
{
	json_object *p, *v;
	const char *f[4] = { NULL, NULL, NULL, NULL };
	static const char *const keys[] = { "command_line", "host", "time_utc", "version" };

	if (!json_object_object_get_ex(root, "provenance", &p) ||
	    !json_object_is_type(p, json_type_object))
		return NULL;
	for (int i = 0; i < 4; i++)
		if (json_object_object_get_ex(p, keys[i], &v) && json_object_is_type(v, json_type_string))
			f[i] = json_object_get_string(v);
	if (!f[0] && !f[1])
		return NULL;
	return input_source_line(f[0], f[1], f[2], f[3]);
}

/* The host its provenance names, NULL if none: whose machine the figures are. */
static char *json_provenance_host(json_object *root)
{
	json_object *p, *v;

	if (!json_object_object_get_ex(root, "provenance", &p) ||
	    !json_object_is_type(p, json_type_object) ||
	    !json_object_object_get_ex(p, "host", &v) || !json_object_is_type(v, json_type_string) ||
	    !*json_object_get_string(v))
		return NULL;
	return xstrdup(json_object_get_string(v));
}

/* provenance.packages, the measured machine's CPU packages: 0 when absent or null. */
static int json_provenance_packages(const char *path, json_object *root, int *packages,
				    char *err, size_t errlen)
{
	json_object *p, *v;
	int64_t n;

	*packages = 0;
	if (!json_object_object_get_ex(root, "provenance", &p) || !json_object_is_type(p, json_type_object) ||
	    !json_object_object_get_ex(p, "packages", &v) || !v)
		return 0;
	if (!json_int(v, 1, PH_MAX_NODES - 1, &n))
		return read_err(err, errlen, "%s: provenance.packages: expected the measured machine's CPU packages, 1 to %d",
				path, PH_MAX_NODES - 1);
	*packages = (int)n;
	return 0;
}

/*
 * provenance.acpi: {"SLIT": {"oem_id": "BOCHS ", "oem_table_id": "BXPCSLIT",
 * "oem_revision": 1}, "HMAT": {...}}, the measured machine's tables' OEM
 * fields; each table may be absent or null.
 */
static int json_provenance_acpi(const char *path, json_object *root, struct ph_input *in,
				char *err, size_t errlen)
{
	const char *const *sigs = ph_prov_acpi_sig;
	json_object *p, *a;

	if (!json_object_object_get_ex(root, "provenance", &p) || !json_object_is_type(p, json_type_object) ||
	    !json_object_object_get_ex(p, "acpi", &a) || !a)
		return 0;
	if (!json_object_is_type(a, json_type_object))
		return read_err(err, errlen, "%s: provenance.acpi: expected an object of tables, \"SLIT\" and \"HMAT\"", path);
	for (int i = 0; i < PH_PROV_NACPI; i++) {
		struct ph_acpi_oem *t = &in->acpi[i];
		json_object *o, *id, *tid, *rev;
		int64_t r;

		if (!json_object_object_get_ex(a, sigs[i], &o) || !o)
			continue;
		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, "oem_id", &id) || !json_object_is_type(id, json_type_string) ||
		    !acpi_id_valid(json_object_get_string(id), 6) ||
		    !json_object_object_get_ex(o, "oem_table_id", &tid) || !json_object_is_type(tid, json_type_string) ||
		    !acpi_id_valid(json_object_get_string(tid), 8) ||
		    !json_object_object_get_ex(o, "oem_revision", &rev) || !json_int(rev, 0, UINT32_MAX, &r))
			return read_err(err, errlen, "%s: provenance.acpi.%s: expected oem_id (1 to 6 characters), oem_table_id (1 to 8) and oem_revision (0 to %u), as the table's header holds them",
					path, sigs[i], UINT32_MAX);
		t->have = true;
		snprintf(t->oem_id, sizeof(t->oem_id), "%s", json_object_get_string(id));
		snprintf(t->oem_table_id, sizeof(t->oem_table_id), "%s", json_object_get_string(tid));
		t->oem_revision = (uint32_t)r;
	}
	return 0;
}

int input_parse_json(const char *path, const char *text, enum ph_figure fig,
		     struct ph_input *in, char *err, size_t errlen)
{
	const char *const *keys = ph_recorded_key;
	struct ph_nmatrix *figs[PH_NREC] = { NULL };
	bool present[PH_NREC];
	json_object *root = NULL;
	struct ph_nmatrix *dm = NULL;
	char why[JSON_WHY_MAX];
	int ret = 0, pick = -1, line;

	memset(in, 0, sizeof(*in));
	if (json_doc_parse(text, &root, &line, why, sizeof(why))) {
		ret = read_err(err, errlen, "%s:%d: %s; expected one JSON object as pagehop matrix --format json writes it",
			       path, line, why);
		goto out;
	}
	for (int i = 0; i < PH_NREC; i++) {
		ret = json_matrix(path, root, keys[i],
				  i == PH_REC_LATENCY ? PH_METRIC_LATENCY : PH_METRIC_BANDWIDTH,
				  &figs[i], err, errlen);
		if (ret)
			goto out;
	}
	if (fig == PH_FIGURE_DISTANCE) {
		ret = read_err(err, errlen, "%s: --metric distance is for CSV input; a pagehop JSON holds latency_ns, bandwidth_read_GBps and bandwidth_triad_GBps",
			       path);
		goto out;
	}
	for (int i = 0; i < PH_NREC; i++)
		present[i] = figs[i];
	pick = figure_pick(fig, present);
	if (pick < 0) {
		char have[128] = "";
		size_t l = 0;

		for (int i = 0; i < PH_NREC; i++)
			if (figs[i])
				l += snprintf(have + l, sizeof(have) - l, "%s%s", l ? ", " : "", keys[i]);
		ret = read_err(err, errlen, "%s: no %s matrix; the file has %s",
			       path, fig == PH_FIGURE_DEFAULT ? "latency_ns, bandwidth_read_GBps or bandwidth_triad_GBps"
			       : figure_word(fig), l ? have : "none of latency_ns, bandwidth_read_GBps, bandwidth_triad_GBps");
		goto out;
	}
	/* Every figure's cells are checked; only the analysed one's missed targets count. */
	for (int i = 0; i < PH_NREC; i++) {
		json_object *mo;

		if (!figs[i])
			continue;
		json_object_object_get_ex(root, keys[i], &mo);
		ret = json_cells(path, root, keys[i], mo, figs[i], i == pick ? &in->ci_not_met : NULL,
				 err, errlen);
		if (ret)
			goto out;
	}
	ret = json_matrix(path, root, "distances", PH_METRIC_DISTANCE, &dm, err, errlen);
	if (ret)
		goto out;
	if (dm) {
		in->slit = slit_from_nmatrix(dm);
		if (!in->slit) {
			ret = read_err(err, errlen, "%s: distances: " PH_SLIT_SHAPE, path);
			goto out;
		}
	}
	ret = json_hmat(path, root, in, err, errlen);
	if (ret)
		goto out;
	in->path = xstrdup(path);
	in->json = true;
	in->source = json_provenance(root);
	ret = json_provenance_packages(path, root, &in->packages, err, errlen);
	if (!ret)
		ret = json_provenance_acpi(path, root, in, err, errlen);
	if (ret)
		goto out;
	in->host = json_provenance_host(root);
	input_take_recorded(in, figs, pick);
out:
	for (int i = 0; i < PH_NREC; i++)
		nmatrix_free(figs[i]);
	nmatrix_free(dm);
	json_object_put(root);
	if (ret)
		input_free(in);
	return ret;
}
