/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * readfile.h - reading a whole input file, safely for a command that root
 * runs on a path from its command line: only a regular file is opened (a
 * FIFO would block, a device could be endless or act on open), or standard
 * input for "-", and never more than a cap.
 */
#ifndef PAGEHOP_READFILE_H
#define PAGEHOP_READFILE_H

#include <stddef.h>

/*
 * Open path read-only if it is a regular file; returns the descriptor, or
 * -errno.  For a file of another type, -EISDIR (a directory) or -EINVAL,
 * with *kind naming it ("a FIFO", "a character device", ...), else NULL.
 * Never waits on a FIFO and never opens a device.
 */
int open_regular(const char *path, const char **kind);

/*
 * Read all of path, or of standard input when path is "-" (whatever it
 * is: a pipe is what "-" is for), into a malloc'd *buf with a NUL after
 * its *len bytes (which may hold NULs of their own).  More than max bytes
 * is -EFBIG, found from the file's size before reading and from what was
 * read (a pipe has no size, and a file can grow); *len is then the size
 * when it was known, else 0.  0, or -errno as from open_regular and read(2).
 */
int read_whole_file(const char *path, size_t max, char **buf, size_t *len,
		    const char **kind);

/*
 * read_whole_file for a binary table (ACPI, CDAT): on an error, why says
 * what was found instead where read_whole_file knows ("a FIFO; expected a
 * regular file", "more than MAX bytes"), else it is "".
 */
int read_table_file(const char *path, size_t max, char **buf, size_t *len, char *why,
		    size_t whylen);

#endif
