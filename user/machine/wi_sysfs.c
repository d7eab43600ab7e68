// SPDX-License-Identifier: GPL-2.0-only
/*
 * wi_sysfs.c - the running kernel's weighted-interleave weights (wi_sysfs.h).
 */
#include "wi_sysfs.h"
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void wi_sysfs_read(const char *dir, int n, const int *ids, struct ph_wi_sysfs *s)
{
	static const char *const auto_names[] = { "auto", "__auto_type" };
	char path[4096], buf[16];

	memset(s, 0, sizeof(*s));
	s->read = true;
	s->present = path_exists(dir);
	s->auto_mode = -1;
	s->n = n;
	s->weight = xcalloc((size_t)(n ? n : 1), sizeof(int));
	for (size_t k = 0; k < sizeof(auto_names) / sizeof(auto_names[0]) && s->auto_mode < 0; k++) {
		snprintf(path, sizeof(path), "%s/%s", dir, auto_names[k]);
		/* The kernel shows "true" or "false" (str_true_false()); older drafts Y or N. */
		if (read_text(path, buf, sizeof(buf)) > 0)
			s->auto_mode = buf[0] == 't' || buf[0] == 'Y' || buf[0] == '1';
	}
	for (int k = 0; k < n; k++) {
		uint64_t v;

		snprintf(path, sizeof(path), "%s/node%d", dir, ids[k]);
		s->weight[k] = read_u64(path, &v) == 0 && v <= 255 ? (int)v : -1;
	}
}

void wi_sysfs_free(struct ph_wi_sysfs *s)
{
	free(s->weight);
	memset(s, 0, sizeof(*s));
}
