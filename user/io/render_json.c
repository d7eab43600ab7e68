// SPDX-License-Identifier: GPL-2.0-only
/*
 * render_json.c - a document as JSON, in json-c's pretty layout, written as the
 * document is walked (output.c says why).
 */
#include "output_impl.h"
#include "util.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

/* ---- JSON rendering: json-c's pretty layout, written as it goes ---- */

#define JSON_FLAGS (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | \
		    JSON_C_TO_STRING_NOSLASHESCAPE)

static void json_indent(FILE *f, int level)
{
	doc_put_spaces(f, 2 * level);
}

/* A string as json-c writes it, quotes and escapes included; malloc'd. */
static char *json_quoted(const char *s)
{
	json_object *o = json_object_new_string(s);
	char *q = xstrdup(o ? json_object_to_json_string_ext(o, JSON_FLAGS) : "null");

	json_object_put(o);
	return q;
}

static void json_string(FILE *f, const char *s)
{
	char *q = json_quoted(s);

	fputs_unlocked(q, f);
	free(q);
}

static void json_cell(FILE *f, const struct cell *c)
{
	switch (c->kind) {
	case CELL_NONE:
		fputs_unlocked("null", f);
		break;
	case CELL_STR:
		json_string(f, ctext(c));
		break;
	case CELL_INT:
		fwrite_unlocked(ctext(c), 1, (size_t)c->len, f);
		break;
	case CELL_NUM:
		/* "%+.1f" reads well in a table; JSON has no leading '+'. */
		if (ctext(c)[0] == '+')
			fwrite_unlocked(ctext(c) + 1, 1, (size_t)c->len - 1, f);
		else
			fwrite_unlocked(ctext(c), 1, (size_t)c->len, f);
		break;
	case CELL_BOOL:
		fputs_unlocked(c->i ? "true" : "false", f);
		break;
	}
}

/*
 * json-c's containers at nesting level L: the opening bracket and a newline;
 * each member on its own line at level L + 1, a comma after all but the
 * last; a newline after the last member, if any, then the closing bracket
 * at level L.
 */
static void json_open(FILE *f, char bracket)
{
	putc_unlocked(bracket, f);
	putc_unlocked('\n', f);
}

static void json_member(FILE *f, int level, int i, const char *key)
{
	if (i)
		fwrite_unlocked(",\n", 1, 2, f);
	json_indent(f, level + 1);
	if (key) {
		json_string(f, key);
		fwrite_unlocked(": ", 1, 2, f);
	}
}

/* The same with the key already quoted: a table's keys, once for all its rows. */
static void json_member_quoted(FILE *f, int level, int i, const char *quoted)
{
	if (i)
		fwrite_unlocked(",\n", 1, 2, f);
	json_indent(f, level + 1);
	fputs_unlocked(quoted, f);
	fwrite_unlocked(": ", 1, 2, f);
}

static void json_close(FILE *f, int level, int n, char bracket)
{
	if (n)
		putc_unlocked('\n', f);
	json_indent(f, level);
	putc_unlocked(bracket, f);
}

/*
 * Keys of one object: json_object_object_add() replaces the value of a key
 * already there, keeping its place.  last[i] is the index of the key whose
 * value is written at key i's place, -1 where an earlier i took it.
 */
static int *json_keys(const char *const *keys, int n)
{
	int *last = xmalloc((n ? n : 1) * sizeof(int));

	for (int i = 0; i < n; i++) {
		last[i] = i;
		for (int j = 0; j < i; j++) {
			if (last[j] >= 0 && !strcmp(keys[j], keys[i])) {
				last[j] = i;
				last[i] = -1;
				break;
			}
		}
	}
	return last;
}

static void json_section(FILE *f, const struct ph_section *s, int level)
{
	const char **keys = xmalloc((s->n ? s->n : 1) * sizeof(*keys));
	int *last, n = 0;

	for (int i = 0; i < s->n; i++)
		keys[i] = s->kv[i].key;
	last = json_keys(keys, s->n);
	json_open(f, '{');
	for (int i = 0; i < s->n; i++) {
		if (last[i] < 0)
			continue;
		json_member(f, level, n++, keys[i]);
		json_cell(f, &s->kv[last[i]].val);
	}
	json_close(f, level, n, '}');
	free(last);
	free(keys);
}

static void json_table(FILE *f, struct ph_table *t, int level)
{
	int *last = json_keys((const char *const *)t->cols, t->ncols);
	char **quoted = xcalloc(t->ncols ? t->ncols : 1, sizeof(*quoted));

	for (int c = 0; c < t->ncols; c++)
		quoted[c] = json_quoted(t->cols[c]);
	json_open(f, '[');
	for (int r = 0; r < t->nrows; r++) {
		const struct cell *row = doc_table_row(t, r);
		int n = 0;

		json_member(f, level, r, NULL);
		json_open(f, '{');
		for (int c = 0; c < t->ncols; c++) {
			if (last[c] < 0)
				continue;
			json_member_quoted(f, level + 1, n++, quoted[c]);
			json_cell(f, &row[last[c]]);
		}
		json_close(f, level + 1, n, '}');
	}
	json_close(f, level, t->nrows, ']');
	for (int c = 0; c < t->ncols; c++)
		free(quoted[c]);
	free(quoted);
	free(last);
}

static void json_ids(FILE *f, const int *ids, int n, int level)
{
	char num[24];

	json_open(f, '[');
	for (int i = 0; i < n; i++) {
		json_member(f, level, i, NULL);
		format_int(num, ids[i]);
		fputs_unlocked(num, f);
	}
	json_close(f, level, n, ']');
}

static void json_matrix(FILE *f, struct ph_matrix *m, int level)
{
	json_open(f, '{');
	json_member(f, level, 0, "metric");
	json_string(f, m->metric);
	json_member(f, level, 1, "rows");
	json_ids(f, m->row_ids, m->nrows, level + 1);
	json_member(f, level, 2, "columns");
	json_ids(f, m->col_ids, m->ncols, level + 1);
	json_member(f, level, 3, "values");
	json_open(f, '[');
	for (int r = 0; r < m->nrows; r++) {
		const struct cell *row = doc_matrix_row(m, r);

		json_member(f, level + 1, r, NULL);
		json_open(f, '[');
		for (int c = 0; c < m->ncols; c++) {
			json_member(f, level + 2, c, NULL);
			json_cell(f, &row[c]);
		}
		json_close(f, level + 2, m->ncols, ']');
	}
	json_close(f, level + 1, m->nrows, ']');
	json_close(f, level, 4, '}');
}

static void json_provenance(FILE *f, const struct ph_provenance *p,
			    const char *command, int level)
{
	const char *const kv[][2] = {
		{ "tool", "pagehop" },
		{ "version", p->version },
		{ "subcommand", command },
		{ "command_line", p->command },
		{ "time_utc", p->time_utc },
		{ "host", p->host },
		{ "kernel", p->kernel },
		{ "machine", p->machine },
		{ "cpu", p->cpu },
		{ "microcode", p->microcode[0] ? p->microcode : NULL },
		{ "bios", p->bios[0] ? p->bios : NULL },
		{ "boot_id", p->boot_id[0] ? p->boot_id : NULL },
	};

	int n = (int)ARRAY_SIZE(kv);

	json_open(f, '{');
	for (size_t i = 0; i < ARRAY_SIZE(kv); i++) {
		json_member(f, level, (int)i, kv[i][0]);
		if (kv[i][1])
			json_string(f, kv[i][1]);
		else
			fputs_unlocked("null", f);
	}
	/* What a topology or a table written for this machine must say of it. */
	json_member(f, level, n++, "packages");
	if (p->packages > 0)
		fprintf(f, "%d", p->packages);
	else
		fputs_unlocked("null", f);
	json_member(f, level, n++, "acpi");
	json_open(f, '{');
	for (int i = 0; i < PH_PROV_NACPI; i++) {
		const struct ph_acpi_oem *a = &p->acpi[i];

		json_member(f, level + 1, i, ph_prov_acpi_sig[i]);
		if (!a->have) {
			fputs_unlocked("null", f);
			continue;
		}
		json_open(f, '{');
		json_member(f, level + 2, 0, "oem_id");
		json_string(f, a->oem_id);
		json_member(f, level + 2, 1, "oem_table_id");
		json_string(f, a->oem_table_id);
		json_member(f, level + 2, 2, "oem_revision");
		fprintf(f, "%u", (unsigned)a->oem_revision);
		json_close(f, level + 2, 3, '}');
	}
	json_close(f, level + 1, PH_PROV_NACPI, '}');
	json_close(f, level, n, '}');
}

/* "time": every phase's seconds, the setup's sum and the total. */
static void json_time(FILE *f, const struct ph_doc *d, int level)
{
	char num[64];
	int n = 0;

	json_open(f, '{');
	json_member(f, level, n++, "clock");
	json_string(f, "CLOCK_MONOTONIC_RAW");
	json_member(f, level, n++, "setup_s");
	snprintf(num, sizeof(num), "%.6f", d->setup_s);
	fputs_unlocked(num, f);
	for (int i = 0; i < PH_PHASE_COUNT; i++) {
		json_member(f, level, n++, phase_key((enum ph_phase)i));
		snprintf(num, sizeof(num), "%.6f", d->phase_s[i]);
		fputs_unlocked(num, f);
	}
	json_member(f, level, n++, "total_s");
	snprintf(num, sizeof(num), "%.6f", d->total_s);
	fputs_unlocked(num, f);
	json_member(f, level, n++, "total_until");
	json_string(f, d->total_until);
	json_close(f, level, n, '}');
}

void doc_render_json(struct ph_doc *d, FILE *f)
{
	/* The root's keys: provenance, one per item, notes, time (a repeat replaces). */
	int nkeys = d->nitems + 3, n = 0;
	const char **keys = xmalloc(nkeys * sizeof(*keys));
	int *last;

	keys[0] = "provenance";
	for (int i = 0; i < d->nitems; i++)
		keys[i + 1] = d->items[i]->name;
	/* A key no item can have when there is no such block: it replaces nothing. */
	keys[d->nitems + 1] = d->nnotes ? "notes" : "";
	keys[d->nitems + 2] = d->have_time ? "time" : "";
	last = json_keys(keys, nkeys);
	json_open(f, '{');
	for (int i = 0; i < nkeys; i++) {
		int k = last[i];

		if (k < 0 || !keys[i][0])
			continue;
		json_member(f, 0, n++, keys[i]);
		if (k == 0) {
			json_provenance(f, &d->prov, d->command, 1);
		} else if (k <= d->nitems) {
			struct item *it = d->items[k - 1];

			switch (it->kind) {
			case ITEM_SECTION:
				json_section(f, &it->sect, 1);
				break;
			case ITEM_TABLE:
				json_table(f, &it->table, 1);
				break;
			case ITEM_MATRIX:
				json_matrix(f, &it->matrix, 1);
				break;
			}
		} else if (k == d->nitems + 2) {
			json_time(f, d, 1);
		} else {
			json_open(f, '[');
			for (int j = 0; j < d->nnotes; j++) {
				json_member(f, 1, j, NULL);
				json_string(f, d->notes[j]);
			}
			json_close(f, 1, d->nnotes, ']');
		}
	}
	json_close(f, 0, n, '}');
	putc_unlocked('\n', f);
	free(last);
	free(keys);
}
