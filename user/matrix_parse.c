// SPDX-License-Identifier: GPL-2.0-only
/*
 * matrix_parse.c - the inputs of "pagehop slit": measured matrices as CSV
 * or pagehop JSON, SLITs as numactl --hardware prints them.
 *
 * Strict where a mistake would change a number (a short row, a stray
 * character in a value, a metric nobody named), lenient where nothing can
 * be misread (comments, blank lines, other blocks of a pagehop CSV).
 */
#include "matrix_parse.h"
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

#define MAX_INPUT_BYTES (16 * MiB)	/* a 1024-node matrix with CIs is far less */
#define MAX_NODES 1024	/* Linux's MAX_NUMNODES at NODES_SHIFT 10, its largest */

static int perr(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int perr(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int figure_parse(const char *s, enum ph_figure *out)
{
	static const struct {
		const char *name;
		enum ph_figure fig;
	} names[] = {
		{ "latency", PH_FIGURE_LATENCY },
		{ "bandwidth", PH_FIGURE_BANDWIDTH },
		{ "read", PH_FIGURE_READ },
		{ "triad", PH_FIGURE_TRIAD },
		{ "distance", PH_FIGURE_DISTANCE },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(s, names[i].name)) {
			*out = names[i].fig;
			return 0;
		}
	}
	return -EINVAL;
}

char *slurp_file(const char *path, size_t max, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf;
	size_t n = 0, cap = 4096;

	if (!f)
		return NULL;
	buf = xmalloc(cap);
	for (;;) {
		size_t got;

		if (n + 1 >= cap) {
			if (cap > max) {
				fclose(f);
				free(buf);
				errno = EFBIG;
				return NULL;
			}
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0) {
			if (ferror(f)) {
				int e = errno ? errno : EIO;

				fclose(f);
				free(buf);
				errno = e;
				return NULL;
			}
			break;
		}
	}
	fclose(f);
	buf[n] = '\0';
	if (strlen(buf) != n) {
		free(buf);
		errno = EINVAL;		/* a NUL byte: not a text file */
		return NULL;
	}
	if (len)
		*len = n;
	return buf;
}

void input_free(struct ph_input *in)
{
	free(in->path);
	free(in->figure);
	free(in->source);
	nmatrix_free(in->m);
	nmatrix_free(in->latency);
	nmatrix_free(in->read_bw);
	slit_free(in->slit);
	free(in->hmat);
	memset(in, 0, sizeof(*in));
}

/* ---- line and field helpers ---- */

/* Split text into lines in place; returns the count.  Handles \r\n. */
static int split_lines(char *text, char ***out)
{
	char **lines = NULL;
	int n = 0;
	char *p = text;

	while (*p) {
		char *nl = strchr(p, '\n');

		lines = xrealloc(lines, (n + 1) * sizeof(*lines));
		lines[n++] = p;
		if (!nl)
			break;
		*nl = '\0';
		if (nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		p = nl + 1;
	}
	*out = lines;
	return n;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* "# key: value" -> value, trimmed; NULL when the line is not that key. */
static char *comment_value(char *line, const char *key)
{
	size_t kl = strlen(key);
	char *p = line + 1;

	while (*p == ' ' || *p == '\t')
		p++;
	if (strncasecmp(p, key, kl) || p[kl] != ':')
		return NULL;
	return trim(p + kl + 1);
}

static bool is_block_start(const char *line)
{
	const char *p = line + 1;

	if (line[0] != '#')
		return false;
	while (*p == ' ' || *p == '\t')
		p++;
	return !strcmp(p, "pagehop matrix");
}

/* Split a CSV line at commas, in place; fields trimmed, quotes removed. */
static int split_fields(char *line, char ***out)
{
	char **f = NULL;
	int n = 0;
	char *p = line;

	for (;;) {
		char *comma = strchr(p, ',');
		char *field;
		size_t l;

		if (comma)
			*comma = '\0';
		field = trim(p);
		l = strlen(field);
		if (l >= 2 && field[0] == '"' && field[l - 1] == '"') {
			field[l - 1] = '\0';
			field++;
		}
		f = xrealloc(f, (n + 1) * sizeof(*f));
		f[n++] = field;
		if (!comma)
			break;
		p = comma + 1;
	}
	*out = f;
	return n;
}

static bool parse_node_id(const char *s, int *out)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end || errno || v > INT_MAX)
		return false;
	*out = (int)v;
	return true;
}

/* ---- CSV ---- */

struct csv_block {
	int line;		/* of "# pagehop matrix" or the metric line */
	int header_line;
	char *name, *source;
	enum ph_metric metric;
	struct ph_nmatrix *m;
};

static void blocks_free(struct csv_block *b, int n)
{
	for (int i = 0; i < n; i++) {
		free(b[i].name);
		free(b[i].source);
		nmatrix_free(b[i].m);
	}
	free(b);
}

/* Parse "node,ID,ID,..." at line ln into the block's (empty) matrix. */
static int csv_header(const char *path, int ln, char *line, struct csv_block *b,
		      char *err, size_t errlen)
{
	char **f;
	int n = split_fields(line, &f), ret = 0;
	int *ids = xcalloc(n, sizeof(int));

	if (strcasecmp(f[0], "node") || n < 2) {
		ret = perr(err, errlen, "%s:%d: expected the header 'node,<memory node ids>', got '%s'",
			   path, ln, f[0]);
		goto out;
	}
	if (n - 1 > MAX_NODES) {
		ret = perr(err, errlen, "%s:%d: %d columns; expected at most %d nodes",
			   path, ln, n - 1, MAX_NODES);
		goto out;
	}
	for (int i = 1; i < n; i++) {
		if (!parse_node_id(f[i], &ids[i - 1])) {
			ret = perr(err, errlen, "%s:%d: header column %d is '%s'; expected a node id (a non-negative integer)",
				   path, ln, i + 1, f[i]);
			goto out;
		}
		for (int j = 1; j < i; j++) {
			if (ids[j - 1] == ids[i - 1]) {
				ret = perr(err, errlen, "%s:%d: node %d appears twice in the header; expected each memory node once",
					   path, ln, ids[i - 1]);
				goto out;
			}
		}
	}
	b->m = nmatrix_new(b->metric, 0, NULL, n - 1, ids);
	b->header_line = ln;
out:
	free(ids);
	free(f);
	return ret;
}

/* Parse one value field; "" and "-" are missing. */
static int csv_value(const char *path, int ln, const char *field, int col,
		     double *out, char *err, size_t errlen)
{
	char *end;
	double v;

	if (!*field || !strcmp(field, "-")) {
		*out = NAN;
		return 0;
	}
	errno = 0;
	v = strtod(field, &end);
	if (end == field || *end || errno || !isfinite(v))
		return perr(err, errlen, "%s:%d: memory node %d: '%s' is not a number; expected a positive number, or an empty field for a missing value",
			    path, ln, col, field);
	if (v <= 0)
		return perr(err, errlen, "%s:%d: memory node %d: %s; expected a positive number",
			    path, ln, col, field);
	*out = v;
	return 0;
}

static int csv_row(const char *path, int ln, char *line, struct csv_block *b,
		   char *err, size_t errlen)
{
	struct ph_nmatrix *m = b->m;
	char **f;
	int n = split_fields(line, &f), id, ret = 0;
	double *vals = xcalloc(m->ncols, sizeof(double));

	if (!parse_node_id(f[0], &id)) {
		ret = perr(err, errlen, "%s:%d: row starts with '%s'; expected a CPU node id, then %d value%s",
			   path, ln, f[0], m->ncols, m->ncols == 1 ? "" : "s");
		goto out;
	}
	if (n != m->ncols + 1) {
		ret = perr(err, errlen, "%s:%d: row of node %d has %d value%s; expected %d, one per column of the header at line %d",
			   path, ln, id, n - 1, n == 2 ? "" : "s", m->ncols, b->header_line);
		goto out;
	}
	if (nmatrix_row(m, id) >= 0) {
		ret = perr(err, errlen, "%s:%d: a second row for node %d; expected one row per CPU node",
			   path, ln, id);
		goto out;
	}
	if (m->nrows >= MAX_NODES) {
		ret = perr(err, errlen, "%s:%d: more than %d rows", path, ln, MAX_NODES);
		goto out;
	}
	for (int c = 0; c < m->ncols; c++) {
		ret = csv_value(path, ln, f[c + 1], m->col_ids[c], &vals[c], err, errlen);
		if (ret)
			goto out;
	}
	nmatrix_add_row(m, id, vals);
out:
	free(vals);
	free(f);
	return ret;
}

static bool name_has(const struct csv_block *b, const char *word)
{
	return b->name && strstr(b->name, word);
}

/* The recorded SLIT of a pagehop CSV: a square "distances" matrix. */
static bool is_slit_block(const struct csv_block *b)
{
	return b->metric == PH_METRIC_DISTANCE && b->name && !strcmp(b->name, "distances");
}

static int pick_block(const struct csv_block *b, int nb, enum ph_figure fig)
{
	int first_bw = -1, read = -1, triad = -1, lat = -1, dist = -1, nbw = 0;

	for (int i = 0; i < nb; i++) {
		if (b[i].metric == PH_METRIC_LATENCY && lat < 0)
			lat = i;
		if (b[i].metric == PH_METRIC_DISTANCE && !is_slit_block(&b[i]) && dist < 0)
			dist = i;
		if (b[i].metric != PH_METRIC_BANDWIDTH)
			continue;
		nbw++;
		if (first_bw < 0)
			first_bw = i;
		if (read < 0 && name_has(&b[i], "read"))
			read = i;
		if (triad < 0 && name_has(&b[i], "triad"))
			triad = i;
	}
	switch (fig) {
	case PH_FIGURE_DEFAULT:
		if (lat >= 0)
			return lat;
		if (read >= 0)
			return read;
		if (first_bw >= 0)
			return first_bw;
		return dist;
	case PH_FIGURE_LATENCY:
		return lat;
	case PH_FIGURE_BANDWIDTH:
		return read >= 0 ? read : first_bw;
	case PH_FIGURE_READ:
		/* A lone unnamed bandwidth matrix (STREAM from another tool) will do. */
		if (read >= 0)
			return read;
		return nbw == 1 && !name_has(&b[first_bw], "triad") ? first_bw : -1;
	case PH_FIGURE_TRIAD:
		if (triad >= 0)
			return triad;
		return nbw == 1 && !name_has(&b[first_bw], "read") ? first_bw : -1;
	case PH_FIGURE_DISTANCE:
		return dist;
	}
	return -1;
}

static const char *figure_word(enum ph_figure fig)
{
	switch (fig) {
	case PH_FIGURE_LATENCY:
		return "latency_ns";
	case PH_FIGURE_BANDWIDTH:
		return "bandwidth_GBps";
	case PH_FIGURE_READ:
		return "read bandwidth_GBps";
	case PH_FIGURE_TRIAD:
		return "triad bandwidth_GBps";
	case PH_FIGURE_DISTANCE:
		return "distance";
	case PH_FIGURE_DEFAULT:
		break;
	}
	return "measured";
}

/* A square distance block (rows and columns the same nodes) as a SLIT. */
static struct ph_slit *block_slit(const struct ph_nmatrix *m)
{
	struct ph_slit *s;

	if (m->nrows != m->ncols)
		return NULL;
	for (int i = 0; i < m->nrows; i++)
		if (nmatrix_col(m, m->row_ids[i]) < 0)
			return NULL;
	s = slit_new(m->nrows, m->row_ids);
	for (int i = 0; i < m->nrows; i++) {
		for (int j = 0; j < m->nrows; j++) {
			double v = m->val[i * m->ncols + nmatrix_col(m, m->row_ids[j])];

			if (!isfinite(v) || v != floor(v) || v > 255) {
				slit_free(s);
				return NULL;
			}
			s->dist[i * s->n + j] = (int)v;
		}
	}
	return s;
}

int input_parse_csv(const char *path, const char *text, enum ph_figure fig,
		    struct ph_input *in, char *err, size_t errlen)
{
	enum { OUT, HEAD, ROWS } state = OUT;
	char *copy = xstrdup(text), **lines;
	int nl = split_lines(copy, &lines), nb = 0, ret = 0, pick;
	int stray_header = 0;
	struct csv_block *b = NULL, *cur = NULL;

	memset(in, 0, sizeof(*in));
	for (int i = 0; i < nl && !ret; i++) {
		char *line = trim(lines[i]), *v;
		int ln = i + 1;

		if (state == ROWS) {
			if (!*line) {
				state = OUT;
				continue;
			}
			if (line[0] == '#') {
				if (comment_value(line, "metric"))
					ret = perr(err, errlen, "%s:%d: a '# metric:' line among the rows of the matrix from line %d; expected a blank line or '# pagehop matrix' before the next matrix",
						   path, ln, cur->line);
				else if (is_block_start(line) || comment_value(line, "table") ||
					 comment_value(line, "section"))
					state = OUT;	/* handled below */
				else
					continue;	/* a comment */
			} else {
				ret = csv_row(path, ln, line, cur, err, errlen);
				continue;
			}
			if (ret)
				break;
		}
		if (state == OUT) {
			if (is_block_start(line) || (line[0] == '#' && comment_value(line, "metric"))) {
				b = xrealloc(b, (nb + 1) * sizeof(*b));
				cur = &b[nb++];
				memset(cur, 0, sizeof(*cur));
				cur->line = ln;
				state = HEAD;
				if (is_block_start(line))
					continue;
			} else {
				if (!stray_header && !strncasecmp(line, "node,", 5))
					stray_header = ln;
				continue;
			}
		}
		/* HEAD: comments up to the "node,..." header. */
		if (!*line)
			continue;
		if (line[0] == '#') {
			if (is_block_start(line)) {
				ret = perr(err, errlen, "%s:%d: a new '# pagehop matrix' before the matrix from line %d had its 'node,...' header",
					   path, ln, cur->line);
			} else if ((v = comment_value(line, "metric"))) {
				char word[32];

				/* The first word: "bandwidth_GBps   (or latency_ns...)" is still bandwidth. */
				sscanf(v, "%31s", word);
				cur->metric = *v ? metric_parse(word) : 0;
				if (!cur->metric)
					ret = perr(err, errlen, "%s:%d: unknown metric '%s'; expected latency_ns, bandwidth_GBps or distance",
						   path, ln, v);
			} else if ((v = comment_value(line, "name"))) {
				free(cur->name);
				cur->name = xstrdup(v);
			} else if ((v = comment_value(line, "source"))) {
				free(cur->source);
				cur->source = xstrdup(v);
			}
			continue;
		}
		if (!cur->metric) {
			ret = perr(err, errlen, "%s:%d: the matrix from line %d has no '# metric:' line before its header; expected '# metric: latency_ns', 'bandwidth_GBps' or 'distance'",
				   path, ln, cur->line);
			break;
		}
		ret = csv_header(path, ln, line, cur, err, errlen);
		state = ROWS;
	}
	if (ret)
		goto out;
	if (state == HEAD) {
		ret = perr(err, errlen, "%s:%d: the file ends before the 'node,<ids>' header of the matrix from line %d",
			   path, nl, cur->line);
		goto out;
	}
	for (int i = 0; i < nb; i++) {
		if (b[i].m && b[i].m->nrows == 0) {
			ret = perr(err, errlen, "%s:%d: the matrix has a header but no rows; expected one row per CPU node",
				   path, b[i].header_line);
			goto out;
		}
	}
	if (!nb) {
		if (stray_header)
			ret = perr(err, errlen, "%s:%d: a 'node,...' header with no '# metric:' line before it; expected '# pagehop matrix' and '# metric: latency_ns', 'bandwidth_GBps' or 'distance'",
				   path, stray_header);
		else
			ret = perr(err, errlen, "%s: no matrix; expected '# pagehop matrix', '# metric: ...' and a 'node,<ids>' header with one row per CPU node",
				   path);
		goto out;
	}
	pick = pick_block(b, nb, fig);
	if (pick < 0) {
		char have[256] = "";
		size_t l = 0;

		for (int i = 0; i < nb && l < sizeof(have); i++)
			l += snprintf(have + l, sizeof(have) - l, "%s%s%s%s", i ? ", " : "",
				      metric_name(b[i].metric), b[i].name ? " " : "",
				      b[i].name ? b[i].name : "");
		ret = perr(err, errlen, "%s: no %s matrix to analyse; the file has: %s",
			   path, figure_word(fig), have);
		goto out;
	}
	in->path = xstrdup(path);
	in->json = false;
	in->figure = xstrdup(b[pick].name ? b[pick].name : metric_name(b[pick].metric));
	in->source = b[pick].source ? xstrdup(b[pick].source) : NULL;
	in->m = b[pick].m;
	b[pick].m = NULL;
	for (int i = 0; i < nb; i++)
		if (is_slit_block(&b[i]) && !in->slit)
			in->slit = block_slit(b[i].m);
out:
	blocks_free(b, nb);
	free(lines);
	free(copy);
	if (ret)
		input_free(in);
	return ret;
}

/* ---- JSON ---- */

static bool json_number(json_object *o, double *v)
{
	if (json_object_is_type(o, json_type_int) || json_object_is_type(o, json_type_double)) {
		*v = json_object_get_double(o);
		return isfinite(*v);
	}
	return false;
}

static bool json_int(json_object *o, int64_t lo, int64_t hi, int64_t *v)
{
	if (!json_object_is_type(o, json_type_int))
		return false;
	*v = json_object_get_int64(o);
	return *v >= lo && *v <= hi;
}

static int json_ids(const char *path, const char *key, const char *what,
		    json_object *arr, int **ids, int *n, char *err, size_t errlen)
{
	size_t len;

	if (!arr || !json_object_is_type(arr, json_type_array))
		return perr(err, errlen, "%s: %s.%s: expected an array of node ids", path, key, what);
	len = json_object_array_length(arr);
	if (len == 0 || len > MAX_NODES)
		return perr(err, errlen, "%s: %s.%s: %zu entries; expected 1 to %d node ids",
			    path, key, what, len, MAX_NODES);
	*ids = xcalloc(len, sizeof(int));
	*n = (int)len;
	for (size_t i = 0; i < len; i++) {
		int64_t v;

		if (!json_int(json_object_array_get_idx(arr, i), 0, INT_MAX, &v))
			return perr(err, errlen, "%s: %s.%s[%zu]: expected a node id (a non-negative integer)",
				    path, key, what, i);
		for (size_t j = 0; j < i; j++)
			if ((*ids)[j] == v)
				return perr(err, errlen, "%s: %s.%s: node %d twice; expected each node once",
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
	int *rows = NULL, *cols = NULL, nr = 0, nc = 0, ret;
	struct ph_nmatrix *m = NULL;
	const char *metric;

	*out = NULL;
	if (!json_object_object_get_ex(root, key, &o) || !o)
		return 0;
	if (!json_object_is_type(o, json_type_object))
		return perr(err, errlen, "%s: %s: expected an object with metric, rows, columns and values", path, key);
	if (!json_object_object_get_ex(o, "metric", &v) || !json_object_is_type(v, json_type_string))
		return perr(err, errlen, "%s: %s.metric: expected the string \"%s\"", path, key, metric_name(want));
	metric = json_object_get_string(v);
	if (metric_parse(metric) != want)
		return perr(err, errlen, "%s: %s.metric: \"%s\"; expected \"%s\"", path, key, metric,
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
		ret = perr(err, errlen, "%s: %s.values: expected an array of %d rows", path, key, nr);
		goto out;
	}
	m = nmatrix_new(want, nr, rows, nc, cols);
	for (int r = 0; r < nr; r++) {
		json_object *row = json_object_array_get_idx(v, r);

		if (!json_object_is_type(row, json_type_array) ||
		    (int)json_object_array_length(row) != nc) {
			ret = perr(err, errlen, "%s: %s.values[%d]: expected an array of %d numbers or nulls",
				   path, key, r, nc);
			goto out;
		}
		for (int c = 0; c < nc; c++) {
			json_object *x = json_object_array_get_idx(row, c);
			double d;

			if (!x)
				continue;	/* null: missing */
			if (!json_number(x, &d) || d <= 0) {
				ret = perr(err, errlen, "%s: %s.values[%d][%d]: expected a positive number or null",
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

/* The CIs, sample counts and missed targets of one figure, from "cells". */
static int json_cells(const char *path, json_object *root, const char *figure,
		      struct ph_nmatrix *m, int *not_met, char *err, size_t errlen)
{
	json_object *cells;
	size_t n;

	*not_met = 0;
	if (!json_object_object_get_ex(root, "cells", &cells) || !cells)
		return 0;
	if (!json_object_is_type(cells, json_type_array))
		return perr(err, errlen, "%s: cells: expected an array of objects", path);
	n = json_object_array_length(cells);
	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(cells, i), *v;
		int64_t cpu, mem;
		int r, k;
		double d;

		if (!json_object_is_type(c, json_type_object))
			return perr(err, errlen, "%s: cells[%zu]: expected an object", path, i);
		if (!json_object_object_get_ex(c, "figure", &v) ||
		    !json_object_is_type(v, json_type_string))
			return perr(err, errlen, "%s: cells[%zu].figure: expected a string such as \"latency_ns\"",
				    path, i);
		if (strcmp(json_object_get_string(v), figure))
			continue;
		if (!json_object_object_get_ex(c, "cpu_node", &v) || !json_int(v, 0, INT_MAX, &cpu) ||
		    !json_object_object_get_ex(c, "mem_node", &v) || !json_int(v, 0, INT_MAX, &mem))
			return perr(err, errlen, "%s: cells[%zu]: expected cpu_node and mem_node, node ids",
				    path, i);
		r = nmatrix_row(m, (int)cpu);
		k = nmatrix_col(m, (int)mem);
		if (r < 0 || k < 0)
			return perr(err, errlen, "%s: cells[%zu]: node %d to %d is not a cell of %s; expected a row and a column of it",
				    path, i, (int)cpu, (int)mem, figure);
		k += r * m->ncols;
		if (json_object_object_get_ex(c, "ci_low", &v) && v) {
			if (!json_number(v, &d))
				return perr(err, errlen, "%s: cells[%zu].ci_low: expected a number or null", path, i);
			m->ci_lo[k] = d;
		}
		if (json_object_object_get_ex(c, "ci_high", &v) && v) {
			if (!json_number(v, &d))
				return perr(err, errlen, "%s: cells[%zu].ci_high: expected a number or null", path, i);
			m->ci_hi[k] = d;
		}
		if (isfinite(m->ci_lo[k]) && isfinite(m->ci_hi[k]) && m->ci_lo[k] > m->ci_hi[k])
			return perr(err, errlen, "%s: cells[%zu]: ci_low %g above ci_high %g; expected ci_low <= ci_high",
				    path, i, m->ci_lo[k], m->ci_hi[k]);
		if (json_object_object_get_ex(c, "samples", &v) && v) {
			int64_t s;

			if (!json_int(v, 0, INT_MAX, &s))
				return perr(err, errlen, "%s: cells[%zu].samples: expected a count", path, i);
			m->samples[k] = (int)s;
		}
		if (json_object_object_get_ex(c, "ci_met", &v) && v &&
		    json_object_is_type(v, json_type_boolean) && !json_object_get_boolean(v))
			(*not_met)++;
	}
	return 0;
}

static int64_t json_opt_int(json_object *o, const char *key, bool *bad)
{
	json_object *v;
	double d;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return -1;
	if (!json_number(v, &d) || d < 0) {
		*bad = true;
		return -1;
	}
	return (int64_t)llround(d);
}

static int json_hmat(const char *path, json_object *root, struct ph_input *in,
		     char *err, size_t errlen)
{
	json_object *arr;
	size_t n;

	if (!json_object_object_get_ex(root, "hmat", &arr) || !arr)
		return 0;
	if (!json_object_is_type(arr, json_type_array))
		return perr(err, errlen, "%s: hmat: expected an array of objects", path);
	n = json_object_array_length(arr);
	in->hmat = xcalloc(n ? n : 1, sizeof(*in->hmat));
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(arr, i), *v;
		struct ph_hmat *h = &in->hmat[i];
		bool bad = false;
		int64_t node, access = 0;

		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, "node", &v) || !json_int(v, 0, INT_MAX, &node))
			return perr(err, errlen, "%s: hmat[%zu]: expected an object with \"node\", a node id",
				    path, i);
		if (json_object_object_get_ex(o, "access", &v) && v && !json_int(v, 0, 255, &access))
			return perr(err, errlen, "%s: hmat[%zu].access: expected an access class, 0 or 1", path, i);
		h->target = (int)node;
		h->access = (int)access;
		if (json_object_object_get_ex(o, "initiators", &v) && v) {
			int ids[256];

			if (!json_object_is_type(v, json_type_string) ||
			    parse_id_list(json_object_get_string(v), ids, (int)ARRAY_SIZE(ids)) < 0)
				return perr(err, errlen, "%s: hmat[%zu].initiators: expected a node list such as \"0\" or \"0-1\"",
					    path, i);
			snprintf(h->initiators, sizeof(h->initiators), "%s", json_object_get_string(v));
		}
		h->read_latency_ns = json_opt_int(o, "read_lat_ns", &bad);
		h->write_latency_ns = json_opt_int(o, "write_lat_ns", &bad);
		h->read_bandwidth_MiBps = json_opt_int(o, "read_bw_MiBps", &bad);
		h->write_bandwidth_MiBps = json_opt_int(o, "write_bw_MiBps", &bad);
		if (bad)
			return perr(err, errlen, "%s: hmat[%zu]: expected read_lat_ns, write_lat_ns, read_bw_MiBps and write_bw_MiBps to be non-negative numbers or null",
				    path, i);
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
	return xasprintf("%s on %s at %s (pagehop %s)", f[0] ? f[0] : "pagehop",
			 f[1] ? f[1] : "?", f[2] ? f[2] : "?", f[3] ? f[3] : "?");
}

int input_parse_json(const char *path, const char *text, enum ph_figure fig,
		     struct ph_input *in, char *err, size_t errlen)
{
	static const char *const keys[] = {
		"latency_ns", "bandwidth_read_GBps", "bandwidth_triad_GBps",
	};
	struct json_tokener *tok = json_tokener_new();
	struct ph_nmatrix *figs[3] = { NULL, NULL, NULL };
	json_object *root = NULL;
	struct ph_nmatrix *dm = NULL;
	enum json_tokener_error jerr;
	size_t len = strlen(text), end;
	int ret = 0, pick = -1;

	memset(in, 0, sizeof(*in));
	root = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (jerr == json_tokener_success)
		while (end < len && isspace((unsigned char)text[end]))
			end++;
	if (jerr != json_tokener_success || end < len) {
		int line = 1;

		for (size_t i = 0; i < end && i < len; i++)
			line += text[i] == '\n';
		ret = perr(err, errlen, "%s:%d: %s; expected one JSON object as pagehop matrix --format json writes it",
			   path, line, jerr == json_tokener_continue ? "the JSON ends early"
			   : jerr != json_tokener_success ? json_tokener_error_desc(jerr)
			   : "text after the JSON object");
		goto out;
	}
	if (!json_object_is_type(root, json_type_object)) {
		ret = perr(err, errlen, "%s:1: expected a JSON object as pagehop matrix --format json writes it", path);
		goto out;
	}
	for (int i = 0; i < 3; i++) {
		ret = json_matrix(path, root, keys[i],
				  i ? PH_METRIC_BANDWIDTH : PH_METRIC_LATENCY, &figs[i], err, errlen);
		if (ret)
			goto out;
	}
	switch (fig) {
	case PH_FIGURE_DEFAULT:
		pick = figs[0] ? 0 : figs[1] ? 1 : figs[2] ? 2 : -1;
		break;
	case PH_FIGURE_LATENCY:
		pick = figs[0] ? 0 : -1;
		break;
	case PH_FIGURE_BANDWIDTH:
		pick = figs[1] ? 1 : figs[2] ? 2 : -1;
		break;
	case PH_FIGURE_READ:
		pick = figs[1] ? 1 : -1;
		break;
	case PH_FIGURE_TRIAD:
		pick = figs[2] ? 2 : -1;
		break;
	case PH_FIGURE_DISTANCE:
		ret = perr(err, errlen, "%s: --metric distance is for CSV input; a pagehop JSON holds latency_ns, bandwidth_read_GBps and bandwidth_triad_GBps",
			   path);
		goto out;
	}
	if (pick < 0) {
		char have[128] = "";
		size_t l = 0;

		for (int i = 0; i < 3; i++)
			if (figs[i])
				l += snprintf(have + l, sizeof(have) - l, "%s%s", l ? ", " : "", keys[i]);
		ret = perr(err, errlen, "%s: no %s matrix; the file has %s",
			   path, fig == PH_FIGURE_DEFAULT ? "latency_ns, bandwidth_read_GBps or bandwidth_triad_GBps"
			   : figure_word(fig), l ? have : "none of latency_ns, bandwidth_read_GBps, bandwidth_triad_GBps");
		goto out;
	}
	ret = json_cells(path, root, keys[pick], figs[pick], &in->ci_not_met, err, errlen);
	if (ret)
		goto out;
	ret = json_matrix(path, root, "distances", PH_METRIC_DISTANCE, &dm, err, errlen);
	if (ret)
		goto out;
	if (dm) {
		in->slit = block_slit(dm);
		if (!in->slit) {
			ret = perr(err, errlen, "%s: distances: expected a square SLIT, the same nodes as rows and columns, integer values up to 255",
				   path);
			goto out;
		}
	}
	ret = json_hmat(path, root, in, err, errlen);
	if (ret)
		goto out;
	in->path = xstrdup(path);
	in->json = true;
	in->figure = xstrdup(keys[pick]);
	in->source = json_provenance(root);
	in->m = figs[pick];
	figs[pick] = NULL;
	in->latency = figs[0];
	figs[0] = NULL;
	in->read_bw = figs[1];
	figs[1] = NULL;
	if (pick == 0)
		in->latency = nmatrix_dup(in->m);
	if (pick == 1)
		in->read_bw = nmatrix_dup(in->m);
out:
	for (int i = 0; i < 3; i++)
		nmatrix_free(figs[i]);
	nmatrix_free(dm);
	json_object_put(root);
	json_tokener_free(tok);
	if (ret)
		input_free(in);
	return ret;
}

int input_load(const char *path, enum ph_figure fig, struct ph_input *in,
	       char *err, size_t errlen)
{
	char *text = slurp_file(path, MAX_INPUT_BYTES, NULL);
	const char *p;
	int ret;

	memset(in, 0, sizeof(*in));
	if (!text)
		return perr(err, errlen, "--input %s: %s", path, strerror(errno));
	for (p = text; isspace((unsigned char)*p); p++)
		;
	if (*p == '{')
		ret = input_parse_json(path, text, fig, in, err, errlen);
	else
		ret = input_parse_csv(path, text, fig, in, err, errlen);
	free(text);
	return ret;
}

/* ---- numactl --hardware ---- */

/* "node 0 1 2" -> ids; false when the line is not that. */
static bool numactl_header(char *line, int **ids, int *n)
{
	char *save = NULL, *tok = strtok_r(line, " \t", &save);

	*ids = NULL;
	*n = 0;
	if (!tok || strcmp(tok, "node"))
		return false;
	while ((tok = strtok_r(NULL, " \t", &save))) {
		int id;

		if (!parse_node_id(tok, &id) || *n >= MAX_NODES) {
			free(*ids);
			*ids = NULL;
			return false;
		}
		*ids = xrealloc(*ids, (*n + 1) * sizeof(int));
		(*ids)[(*n)++] = id;
	}
	return *n > 0;
}

int slit_parse_numactl(const char *path, const char *text,
		       struct ph_slit **out, char *err, size_t errlen)
{
	char *copy = xstrdup(text), **lines;
	int nl = split_lines(copy, &lines), hdr = -1, *ids = NULL, n = 0, ret = 0, i;
	bool *seen = NULL;
	struct ph_slit *s = NULL;

	*out = NULL;
	/* The header follows "node distances:"; a bare table is fine too. */
	for (i = 0; i < nl; i++) {
		char *line = trim(lines[i]);

		if (!strcmp(line, "node distances:")) {
			hdr = i + 1;
			break;
		}
		if (strstr(line, "No distance information")) {
			ret = perr(err, errlen, "%s:%d: numactl found no distance information (no SLIT); expected a 'node distances:' table",
				   path, i + 1);
			goto out;
		}
	}
	if (hdr < 0) {
		for (i = 0; i < nl; i++) {
			char buf[64];

			if (sscanf(lines[i], " node %63s", buf) == 1 && isdigit((unsigned char)buf[0]) &&
			    !strstr(lines[i], "cpus") && !strstr(lines[i], "size") && !strstr(lines[i], "free")) {
				hdr = i;
				break;
			}
		}
	}
	if (hdr < 0) {
		ret = perr(err, errlen, "%s: no 'node distances:' table; expected the output of numactl --hardware",
			   path);
		goto out;
	}
	while (hdr < nl && !*trim(lines[hdr]))
		hdr++;
	if (hdr >= nl) {
		ret = perr(err, errlen, "%s:%d: the file ends after 'node distances:'; expected a header 'node 0 1 ...'",
			   path, nl);
		goto out;
	}
	{
		char *h = xstrdup(trim(lines[hdr]));
		bool ok = numactl_header(h, &ids, &n);

		free(h);
		if (!ok) {
			ret = perr(err, errlen, "%s:%d: expected the header 'node 0 1 ...', got '%s'",
				   path, hdr + 1, trim(lines[hdr]));
			goto out;
		}
	}
	s = slit_new(n, ids);
	seen = xcalloc(n, sizeof(bool));
	for (int r = 0; r < n; r++) {
		int ln = hdr + 2 + r, id, idx, pos;
		char *line;

		if (ln > nl) {
			ret = perr(err, errlen, "%s:%d: the file ends after %d of %d rows; expected a row for every node of the header",
				   path, nl, r, n);
			goto out;
		}
		line = trim(lines[ln - 1]);
		if (sscanf(line, "%d:%n", &id, &pos) != 1 || id < 0) {
			ret = perr(err, errlen, "%s:%d: expected a row 'N: %d distances', got '%s'",
				   path, ln, n, line);
			goto out;
		}
		idx = -1;
		for (int j = 0; j < n; j++)
			if (ids[j] == id)
				idx = j;
		if (idx < 0 || seen[idx]) {
			ret = perr(err, errlen, "%s:%d: row for node %d; expected one row for each node of the header, once",
				   path, ln, id);
			goto out;
		}
		seen[idx] = true;
		line += pos;
		for (int c = 0; c < n; c++) {
			char *end;
			long v;

			while (isspace((unsigned char)*line))
				line++;
			v = strtol(line, &end, 10);
			if (end == line || v < 0 || v > 255 || (*end && !isspace((unsigned char)*end))) {
				ret = perr(err, errlen, "%s:%d: node %d: distance %d of %d missing or not 0..255; expected %d distances",
					   path, ln, id, c + 1, n, n);
				goto out;
			}
			s->dist[idx * n + c] = (int)v;
			line = end;
		}
		if (*trim(line)) {
			ret = perr(err, errlen, "%s:%d: node %d: more than %d distances; expected one per node of the header",
				   path, ln, id, n);
			goto out;
		}
	}
	*out = s;
	s = NULL;
out:
	slit_free(s);
	free(seen);
	free(ids);
	free(lines);
	free(copy);
	return ret;
}

int slit_load_numactl(const char *path, struct ph_slit **out, char *err,
		      size_t errlen)
{
	char *text = slurp_file(path, MAX_INPUT_BYTES, NULL);
	int ret;

	*out = NULL;
	if (!text)
		return perr(err, errlen, "--slit %s: %s", path, strerror(errno));
	ret = slit_parse_numactl(path, text, out, err, errlen);
	free(text);
	return ret;
}
