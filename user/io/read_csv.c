// SPDX-License-Identifier: GPL-2.0-only
/*
 * read_csv.c - measured matrices as CSV.
 *
 * Strict where a mistake would change a number (a short row, a stray
 * character in a value, a metric nobody named), lenient where nothing can
 * be misread (comments, blank lines, other blocks of a pagehop CSV).
 */
#include "read_csv.h"
#include "read_text.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "# key: value" -> value, trimmed; NULL when the line is not that key. */
static char *comment_value(char *line, const char *key)
{
	size_t kl = strlen(key);
	char *p = line + 1;

	while (*p == ' ' || *p == '\t')
		p++;
	if (strncasecmp(p, key, kl) || p[kl] != ':')
		return NULL;
	return text_trim(p + kl + 1);
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

/*
 * A published table's header as it is printed: "MEM CPU", then the CPU
 * node ids, tab-separated; its rows are memory nodes.  Rewritten in place
 * into the CSV header "node,ids" (and its rows, tsv_line, likewise).
 */
static bool is_mem_cpu_header(const char *line)
{
	const char *p = line;

	if (strncasecmp(p, "MEM", 3))
		return false;
	for (p += 3; *p == ' ' || *p == '\t'; p++)
		;
	return p > line + 3 && !strncasecmp(p, "CPU", 3) && p[3] == '\t';
}

static void tsv_line(char *line)
{
	for (char *p = line; *p; p++)
		if (*p == '\t')
			*p = ',';
}

static char *mem_cpu_header(char *line)
{
	char *p = line + 3;

	while (*p == ' ' || *p == '\t')
		p++;
	/* p is at "CPU", after at least one blank: "node" ends where it ends. */
	memcpy(p - 1, "node", 4);
	tsv_line(p - 1);
	return p - 1;
}

/* "# rows: memory node, ..." or "# orientation: mem-rows" -> what it says. */
static int orient_comment(char *line, enum ph_orient *out)
{
	char *v = comment_value(line, "orientation");

	if (v)
		return orient_parse(v, out) ? -EINVAL : 1;
	v = comment_value(line, "rows");
	if (!v)
		return 0;
	if (!strncasecmp(v, "cpu", 3))
		*out = PH_ORIENT_CPU_ROWS;
	else if (!strncasecmp(v, "mem", 3))
		*out = PH_ORIENT_MEM_ROWS;
	else
		return -EINVAL;
	return 1;
}

/* Split a CSV line at commas, in place; fields trimmed, quotes removed. */
static int split_fields(char *line, char ***out)
{
	char **f;
	int n = 1;
	char *p = line;

	for (const char *q = line; (q = strchr(q, ',')); q++)
		n++;
	f = xcalloc(n, sizeof(*f));
	n = 0;
	for (;;) {
		char *comma = strchr(p, ',');
		char *field;
		size_t l;

		if (comma)
			*comma = '\0';
		field = text_trim(p);
		l = strlen(field);
		if (l >= 2 && field[0] == '"' && field[l - 1] == '"') {
			field[l - 1] = '\0';
			field++;
		}
		f[n++] = field;
		if (!comma)
			break;
		p = comma + 1;
	}
	*out = f;
	return n;
}

struct csv_block {
	int line;		/* of "# pagehop matrix" or the metric line */
	int header_line;	/* 0 until the header is read */
	char *name, *source;
	int packages;		/* "# packages: N"; 0: not said */
	enum ph_metric metric;
	/* The rows as read, grown by doubling; m is made of them at the end. */
	int ncols, nrows, cap;
	int *col_ids, *row_ids;
	double *vals;		/* nrows x ncols */
	struct ph_nmatrix *m;
	enum ph_orient orient;	/* what the block said its rows are */
	int orient_line;	/* where ("# rows:", "# orientation:"); 0: its corner */
	int metric_line;	/* of its "# metric:" line; 0: none */
	bool tsv;		/* tab-separated, a "MEM CPU" corner */
};

static void blocks_free(struct csv_block *b, int n)
{
	for (int i = 0; i < n; i++) {
		free(b[i].name);
		free(b[i].source);
		free(b[i].col_ids);
		free(b[i].row_ids);
		free(b[i].vals);
		nmatrix_free(b[i].m);
	}
	free(b);
}

/* Parse "node,ID,ID,..." at line ln: the block's columns. */
static int csv_header(const char *path, int ln, char *line, struct csv_block *b,
		      char *err, size_t errlen)
{
	char **f;
	int n = split_fields(line, &f), ret = 0;
	int *ids = xcalloc(n, sizeof(int));

	if (strcasecmp(f[0], "node") || n < 2) {
		ret = read_err(err, errlen, "%s:%d: expected the header 'node,<memory node ids>', got '%s'",
			       path, ln, f[0]);
		goto out;
	}
	if (n - 1 > PH_MAX_NODES) {
		ret = read_err(err, errlen, "%s:%d: %d columns; expected at most %d nodes",
			       path, ln, n - 1, PH_MAX_NODES);
		goto out;
	}
	for (int i = 1; i < n; i++) {
		if (!parse_node_id(f[i], &ids[i - 1])) {
			ret = read_err(err, errlen, "%s:%d: header column %d is '%s'; expected a node id, 0 to %d",
				       path, ln, i + 1, f[i], PH_MAX_NODES - 1);
			goto out;
		}
		for (int j = 1; j < i; j++) {
			if (ids[j - 1] == ids[i - 1]) {
				ret = read_err(err, errlen, "%s:%d: node %d appears twice in the header; expected each memory node once",
					       path, ln, ids[i - 1]);
				goto out;
			}
		}
	}
	b->ncols = n - 1;
	b->col_ids = ids;
	ids = NULL;
	b->header_line = ln;
out:
	free(ids);
	free(f);
	return ret;
}

/*
 * A decimal number as a spreadsheet writes one: [+-]digits[.digits][e[+-]digits],
 * digits on at least one side of the point.  strtod alone would also take
 * hex ("0x10" as 16), "inf" and "nan".
 */
static bool is_decimal(const char *s)
{
	bool digits = false;

	if (*s == '+' || *s == '-')
		s++;
	for (; isdigit((unsigned char)*s); s++)
		digits = true;
	if (*s == '.')
		for (s++; isdigit((unsigned char)*s); s++)
			digits = true;
	if (!digits)
		return false;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!isdigit((unsigned char)*s))
			return false;
		while (isdigit((unsigned char)*s))
			s++;
	}
	return !*s;
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
	if (!is_decimal(field) || end == field || *end || errno || !isfinite(v))
		return read_err(err, errlen, "%s:%d: memory node %d: '%s' is not a number; expected a positive number, or an empty field for a missing value",
				path, ln, col, field);
	if (v <= 0)
		return read_err(err, errlen, "%s:%d: memory node %d: %s; expected a positive number",
				path, ln, col, field);
	*out = v;
	return 0;
}

static int csv_row(const char *path, int ln, char *line, struct csv_block *b,
		   char *err, size_t errlen)
{
	char **f;
	int n = split_fields(line, &f), id, ret = 0;
	double *vals;

	if (!parse_node_id(f[0], &id)) {
		ret = read_err(err, errlen, "%s:%d: row starts with '%s'; expected a CPU node id, then %d value%s",
			       path, ln, f[0], b->ncols, b->ncols == 1 ? "" : "s");
		goto out;
	}
	if (n != b->ncols + 1) {
		ret = read_err(err, errlen, "%s:%d: row of node %d has %d value%s; expected %d, one per column of the header at line %d",
			       path, ln, id, n - 1, n == 2 ? "" : "s", b->ncols, b->header_line);
		goto out;
	}
	for (int r = 0; r < b->nrows; r++) {
		if (b->row_ids[r] == id) {
			ret = read_err(err, errlen, "%s:%d: a second row for node %d; expected one row per CPU node",
				       path, ln, id);
			goto out;
		}
	}
	/* Unreachable while ids are below PH_MAX_NODES and distinct; kept as the bound of the arrays. */
	if (b->nrows >= PH_MAX_NODES) {
		ret = read_err(err, errlen, "%s:%d: more than %d rows", path, ln, PH_MAX_NODES);
		goto out;
	}
	if (b->nrows == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 16;
		b->row_ids = xrealloc(b->row_ids, (size_t)b->cap * sizeof(int));
		b->vals = xrealloc(b->vals, (size_t)b->cap * b->ncols * sizeof(double));
	}
	vals = b->vals + (size_t)b->nrows * b->ncols;
	for (int c = 0; c < b->ncols; c++) {
		ret = csv_value(path, ln, f[c + 1], b->col_ids[c], &vals[c], err, errlen);
		if (ret)
			goto out;
	}
	b->row_ids[b->nrows++] = id;
out:
	free(f);
	return ret;
}

/*
 * Header nodes without a row after the last row read, as the file has
 * them: memory-only nodes (no CPUs) have no row where rows are CPU nodes,
 * CPU-only ones where they are memory nodes, and neither have the rows a
 * file cut just after a whole row lost; nothing in a CSV tells the two
 * apart.  A note naming them, or NULL.
 */
static char *cut_note(const char *path, const struct csv_block *b)
{
	char ids[96] = "";
	size_t l = 0;
	int n = 0, last = b->row_ids[b->nrows - 1];

	for (int c = 0; c < b->ncols; c++) {
		bool has_row = false;

		for (int r = 0; r < b->nrows && !has_row; r++)
			has_row = b->row_ids[r] == b->col_ids[c];
		if (has_row)
			continue;
		/* Before the last row: not what a cut after it loses. */
		if (b->col_ids[c] < last)
			return NULL;
		n++;
		if (l < sizeof(ids) - 16)
			l += snprintf(ids + l, sizeof(ids) - l, "%s%d", l ? ", " : "", b->col_ids[c]);
		else if (l < sizeof(ids) - 4)
			l += snprintf(ids + l, sizeof(ids) - l, ", ...");
	}
	if (!n)
		return NULL;
	return xasprintf("%s:%d: the header names %d nodes and the matrix has %d rows: node%s %s, after the last row, ha%s none; %s nodes have none, and so has a file cut after a whole row: which, the file cannot tell",
			 path, b->header_line, b->ncols, b->nrows, n == 1 ? "" : "s", ids, n == 1 ? "s" : "ve",
			 b->orient == PH_ORIENT_MEM_ROWS ? "CPU-only (memoryless)" : "memory-only");
}

/* The block's matrix, from its rows. */
static void csv_block_finish(struct csv_block *b)
{
	b->m = nmatrix_new(b->metric, b->nrows, b->row_ids, b->ncols, b->col_ids);
	memcpy(b->m->val, b->vals, (size_t)b->nrows * b->ncols * sizeof(double));
	/* Rows = memory node, as printed: the analysis takes rows = CPU node. */
	if (b->orient == PH_ORIENT_MEM_ROWS) {
		struct ph_nmatrix *t = nmatrix_transpose(b->m);

		nmatrix_free(b->m);
		b->m = t;
	}
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

int input_parse_csv(const char *path, const char *text, enum ph_figure fig,
		    struct ph_input *in, char *err, size_t errlen)
{
	enum { OUT, HEAD, ROWS } state = OUT;
	char *copy = xstrdup(text), **lines;
	int nl = text_lines(copy, &lines), nb = 0, ret = 0, pick;
	int stray_header = 0;
	struct csv_block *b = NULL, *cur = NULL;

	memset(in, 0, sizeof(*in));
	ret = text_last_line(path, text, err, errlen);
	if (ret)
		goto out;
	for (int i = 0; i < nl && !ret; i++) {
		char *line = text_trim(lines[i]), *v;
		int ln = i + 1;

		if (state == ROWS) {
			if (!*line) {
				state = OUT;
				continue;
			}
			if (line[0] == '#') {
				enum ph_orient o;

				if (comment_value(line, "metric"))
					ret = read_err(err, errlen, "%s:%d: a '# metric:' line among the rows of the matrix from line %d; expected a blank line or '# pagehop matrix' before the next matrix",
						       path, ln, cur->line);
				else if (orient_comment(line, &o) > 0)
					ret = read_err(err, errlen, "%s:%d: '%s' among the rows of the matrix from line %d; expected it before the matrix's 'node,...' header",
						       path, ln, line, cur->line);
				else if (is_block_start(line) || comment_value(line, "table") ||
					 comment_value(line, "section"))
					state = OUT;	/* handled below */
				else
					continue;	/* a comment */
			} else {
				if (cur->tsv)
					tsv_line(line);
				ret = csv_row(path, ln, line, cur, err, errlen);
				continue;
			}
			if (ret)
				break;
		}
		if (state == OUT && is_mem_cpu_header(line)) {
			/* A table as published: GB/s unless a '# metric:' said otherwise. */
			b = xrealloc(b, (nb + 1) * sizeof(*b));
			cur = &b[nb++];
			memset(cur, 0, sizeof(*cur));
			cur->line = ln;
			cur->metric = PH_METRIC_BANDWIDTH;
			state = HEAD;
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
				enum ph_orient o;

				/* Said of no matrix, it would be lost: the rows read as CPU nodes. */
				if (line[0] == '#' && orient_comment(line, &o) > 0) {
					ret = read_err(err, errlen, "%s:%d: '%s' before any '# pagehop matrix'; expected it after '# pagehop matrix' and before the 'node,...' header",
						       path, ln, line);
					break;
				}
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
				ret = read_err(err, errlen, "%s:%d: a new '# pagehop matrix' before the matrix from line %d had its 'node,...' header",
					       path, ln, cur->line);
			} else if ((v = comment_value(line, "metric"))) {
				char word[32] = "";
				int wl = 0;
				const char *rest;

				/*
				 * One metric a matrix: a second would change what is
				 * analysed.  After it only a remark in parentheses, as
				 * docs/slit.md's template has one.
				 */
				sscanf(v, "%31s%n", word, &wl);
				for (rest = v + wl; *rest == ' ' || *rest == '\t'; rest++)
					;
				if (cur->metric_line)
					ret = read_err(err, errlen, "%s:%d: a second '# metric:' line for the matrix whose metric line %d gave; expected one",
						       path, ln, cur->metric_line);
				else if (!(cur->metric = *v ? metric_parse(word) : 0))
					ret = read_err(err, errlen, "%s:%d: unknown metric '%s'; expected latency_ns, bandwidth_GBps or distance",
						       path, ln, v);
				else if (*rest && *rest != '(')
					ret = read_err(err, errlen, "%s:%d: '%s' after the metric %s; expected the metric alone, or a remark in parentheses",
						       path, ln, rest, word);
				cur->metric_line = ln;
			} else if ((v = comment_value(line, "name"))) {
				free(cur->name);
				cur->name = xstrdup(v);
			} else if ((v = comment_value(line, "source"))) {
				free(cur->source);
				cur->source = xstrdup(v);
			} else if ((v = comment_value(line, "packages"))) {
				const char *p = v;
				int np;

				/* The machine's CPU packages (sockets): what a topology of it shows. */
				if (!node_id_prefix(&p, &np) || *p || np < 1)
					ret = read_err(err, errlen, "%s:%d: '# packages: %s'; expected the measured machine's CPU packages, 1 to %d",
						       path, ln, v, PH_MAX_NODES - 1);
				else
					cur->packages = np;
			} else {
				enum ph_orient o = 0;

				ret = orient_comment(line, &o);
				if (ret < 0)
					ret = read_err(err, errlen, "%s:%d: '%s': expected '# orientation: cpu-rows' or 'mem-rows', or '# rows: cpu node' or 'memory node'",
						       path, ln, line);
				else if (ret && cur->orient_line && o != cur->orient)
					ret = read_err(err, errlen, "%s:%d: '%s' says the rows are %s nodes, but line %d says %s nodes",
						       path, ln, line, o == PH_ORIENT_MEM_ROWS ? "memory" : "CPU",
						       cur->orient_line, cur->orient == PH_ORIENT_MEM_ROWS ? "memory" : "CPU");
				else if (ret) {
					cur->orient = o;
					cur->orient_line = ln;
					ret = 0;
				}
			}
			continue;
		}
		if (is_mem_cpu_header(line)) {
			if (cur->orient == PH_ORIENT_CPU_ROWS) {
				ret = read_err(err, errlen, "%s:%d: a 'MEM CPU' corner (rows = memory node), but line %d says the rows are CPU nodes",
					       path, ln, cur->orient_line);
				break;
			}
			cur->orient = PH_ORIENT_MEM_ROWS;
			cur->orient_line = 0;
			cur->tsv = true;
			line = mem_cpu_header(line);
		}
		if (!cur->metric) {
			ret = read_err(err, errlen, "%s:%d: the matrix from line %d has no '# metric:' line before its header; expected '# metric: latency_ns', 'bandwidth_GBps' or 'distance'",
				       path, ln, cur->line);
			break;
		}
		ret = csv_header(path, ln, line, cur, err, errlen);
		state = ROWS;
	}
	if (ret)
		goto out;
	if (state == HEAD) {
		ret = read_err(err, errlen, "%s:%d: the file ends before the 'node,<ids>' header of the matrix from line %d",
			       path, nl, cur->line);
		goto out;
	}
	for (int i = 0; i < nb; i++) {
		if (b[i].nrows == 0) {
			ret = read_err(err, errlen, "%s:%d: the matrix has a header but no rows; expected one row per CPU node",
				       path, b[i].header_line);
			goto out;
		}
		csv_block_finish(&b[i]);
	}
	if (!nb) {
		if (stray_header)
			ret = read_err(err, errlen, "%s:%d: a 'node,...' header with no '# metric:' line before it; expected '# pagehop matrix' and '# metric: latency_ns', 'bandwidth_GBps' or 'distance'",
				       path, stray_header);
		else
			ret = read_err(err, errlen, "%s: no matrix; expected '# pagehop matrix', '# metric: ...' and a 'node,<ids>' header with one row per CPU node",
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
		ret = read_err(err, errlen, "%s: no %s matrix to analyse; the file has: %s",
			       path, figure_word(fig), have);
		goto out;
	}
	in->path = xstrdup(path);
	in->json = false;
	in->figure = xstrdup(b[pick].name ? b[pick].name : metric_name(b[pick].metric));
	in->source = b[pick].source ? xstrdup(b[pick].source) : NULL;
	in->packages = b[pick].packages;
	in->m = b[pick].m;
	in->rows = b[pick].orient;
	in->rows_line = b[pick].orient_line;
	in->note = cut_note(path, &b[pick]);
	b[pick].m = NULL;
	/*
	 * A recorded SLIT that is not one is refused, as in JSON: dropped, the
	 * analysis would run without a SLIT and not say why.
	 */
	for (int i = 0; i < nb; i++) {
		struct ph_slit *s;

		if (!is_slit_block(&b[i]))
			continue;
		s = slit_from_nmatrix(b[i].m);
		if (!s) {
			ret = read_err(err, errlen, "%s:%d: distances: " PH_SLIT_SHAPE, path, b[i].header_line);
			goto out;
		}
		if (in->slit)
			slit_free(s);
		else
			in->slit = s;
	}
out:
	blocks_free(b, nb);
	free(lines);
	free(copy);
	if (ret)
		input_free(in);
	return ret;
}
