/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * read_fleet.h - a fleet's saved documents, for "pagehop compare": each
 * operand a file or a directory (every *.json in it, in name order), each
 * document read as read_baseline.h reads one.  A document that cannot be
 * read or parsed is kept as skipped, with the reader's reason, and the
 * others are read: one truncated file among ten thousand loses one host,
 * not the comparison.
 */
#ifndef PAGEHOP_READ_FLEET_H
#define PAGEHOP_READ_FLEET_H

#include <stddef.h>

#include "hmodel.h"

struct ph_skipped {
	char *path;
	char *why;		/* one line, "path: reason", as the reader said it */
};

struct ph_fleet_docs {
	struct ph_hset *sets;	/* every document that reads, in the order given */
	int n;
	struct ph_skipped *skipped;	/* every one that does not, in the order given */
	int nskipped;
	size_t sets_cap, skipped_cap;	/* room, grown by doubling */
};

/*
 * Append what path holds to d: its document, or a directory's (a file
 * whose name does not end in .json, or starts with a dot, is not one of
 * them).  A path or a directory entry that cannot be read (a directory that
 * cannot be listed, one without a *.json file) is a skipped entry too.
 */
void fleet_read(struct ph_fleet_docs *d, const char *path);
void fleet_docs_free(struct ph_fleet_docs *d);

#endif
