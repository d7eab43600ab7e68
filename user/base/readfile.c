// SPDX-License-Identifier: GPL-2.0-only
/*
 * readfile.c - a whole input file, refused unless it is a regular file (or
 * standard input for "-"), and capped.
 */
#include "readfile.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *file_kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR:
		return "a directory";
	case S_IFIFO:
		return "a FIFO";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFSOCK:
		return "a socket";
	}
	return "not a regular file";
}

static int not_regular(mode_t mode, const char **kind)
{
	*kind = file_kind(mode);
	return S_ISDIR(mode) ? -EISDIR : -EINVAL;
}

int open_regular(const char *path, const char **kind)
{
	struct stat st;
	int fd, fl;

	*kind = NULL;
	/*
	 * Look before opening: opening a device can act (a tape rewinds, a
	 * serial line hangs up on close), and a FIFO's open waits for a writer.
	 */
	if (stat(path, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return not_regular(st.st_mode, kind);
	/*
	 * The path can be replaced between stat and open: O_NONBLOCK so that a
	 * FIFO put there does not block the open, O_NOCTTY so that a terminal
	 * does not become ours; fstat then says what was opened.
	 */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		int err = -errno;

		close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return not_regular(st.st_mode, kind);
	}
	/* Plain blocking reads from here (O_NONBLOCK means nothing to a regular file anyway). */
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

/* read(2) that waits when standard input was left non-blocking by whoever holds it. */
static ssize_t read_some(int fd, char *buf, size_t len)
{
	for (;;) {
		ssize_t n = read(fd, buf, len);
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (n >= 0)
			return n;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return -1;
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			return -1;
	}
}

int read_whole_file(const char *path, size_t max, char **buf, size_t *len,
		    const char **kind)
{
	bool is_stdin = !strcmp(path, "-");
	struct stat st;
	size_t n = 0, cap = 64 * KiB;
	char *b;
	int fd, err = 0;

	*buf = NULL;
	*len = 0;
	*kind = NULL;
	fd = is_stdin ? STDIN_FILENO : open_regular(path, kind);
	if (fd < 0)
		return fd;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode)) {
		if ((unsigned long long)st.st_size > max) {
			*len = (size_t)st.st_size;
			err = -EFBIG;
			goto out;
		}
		/* + 1: to meet the end in the first pass */
		if ((size_t)st.st_size + 1 > cap)
			cap = (size_t)st.st_size + 1;
	}
	if (cap > max + 1)
		cap = max + 1;
	b = xmalloc(cap + 1);
	for (;;) {
		ssize_t got;

		if (n == cap) {
			if (cap > max) {	/* holding max + 1 bytes */
				free(b);
				err = -EFBIG;
				goto out;
			}
			cap = cap > (max + 1) / 2 ? max + 1 : cap * 2;
			b = xrealloc(b, cap + 1);
		}
		got = read_some(fd, b + n, cap - n);
		if (got < 0) {
			err = -errno;
			free(b);
			goto out;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
out:
	if (!is_stdin)
		close(fd);
	return err;
}

int read_table_file(const char *path, size_t max, char **buf, size_t *len, char *why,
		    size_t whylen)
{
	const char *kind = NULL;
	int err = read_whole_file(path, max, buf, len, &kind);

	why[0] = '\0';
	if (err && kind)
		snprintf(why, whylen, "%s; expected a regular file", kind);
	else if (err == -EFBIG)
		snprintf(why, whylen, "more than %zu bytes", max);
	return err;
}
