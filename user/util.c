// SPDX-License-Identifier: GPL-2.0-only
/*
 * util.c - error reporting, allocation, sysfs reads and size parsing.
 */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *progname = "pagehop";

static char cmdline[256] = "pagehop";

void ph_set_cmdline(int argc, char *const argv[])
{
	size_t len = 0;

	cmdline[0] = '\0';
	for (int i = 0; i < argc && len + 4 < sizeof(cmdline); i++) {
		const char *a = i ? argv[i] : "pagehop";
		bool plain = *a && !strpbrk(a, " \t\n'\"\\$`;&|<>()*?[]{}!#~");
		int n;

		if (plain) {
			n = snprintf(cmdline + len, sizeof(cmdline) - len, "%s%s",
				     i ? " " : "", a);
		} else {
			/* Single quotes, with each ' written as '\''. */
			n = snprintf(cmdline + len, sizeof(cmdline) - len, "%s'", i ? " " : "");
			for (const char *s = a; *s && len + n + 5 < sizeof(cmdline); s++)
				n += *s == '\'' ? snprintf(cmdline + len + n, sizeof(cmdline) - len - n, "'\\''")
						: snprintf(cmdline + len + n, sizeof(cmdline) - len - n, "%c", *s);
			n += snprintf(cmdline + len + n, sizeof(cmdline) - len - n, "'");
		}
		if (n < 0)
			break;
		len += (size_t)n;
		if (len >= sizeof(cmdline))
			len = sizeof(cmdline) - 1;
	}
}

const char *ph_cmdline(void)
{
	return cmdline;
}

void ph_set_progname(const char *name)
{
	progname = name;
}

const char *ph_progname(void)
{
	return progname;
}

static void vmsg(const char *prefix, int err, const char *fmt, va_list ap)
{
	/* Build the whole line first so that it reaches stderr in one write. */
	char line[1024];
	int n = snprintf(line, sizeof(line), "%s: %s", progname, prefix);

	if (n < 0 || (size_t)n >= sizeof(line))
		n = 0;
	vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	if (err) {
		size_t len = strlen(line);

		snprintf(line + len, sizeof(line) - len, ": %s", strerror(err));
	}
	fprintf(stderr, "%s\n", line);
}

void ph_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", 0, fmt, ap);
	va_end(ap);
}

void ph_errno(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", err, fmt, ap);
	va_end(ap);
}

void ph_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", 0, fmt, ap);
	va_end(ap);
}

static void oom(size_t n)
{
	fprintf(stderr, "%s: out of memory allocating %zu bytes\n", progname, n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s ? s : "");

	if (!p)
		oom(strlen(s));
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		oom(strlen(fmt));
	va_end(ap);
	return s;
}

int read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return (int)n;
}

int read_u64(const char *path, uint64_t *val)
{
	char buf[64], *end;
	int n = read_text(path, buf, sizeof(buf));

	if (n < 0)
		return n;
	errno = 0;
	*val = strtoull(buf, &end, 0);
	if (errno || end == buf || *end)
		return -EINVAL;
	return 0;
}

bool path_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

int write_file_atomic(const char *path, const void *buf, size_t len)
{
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	FILE *f = fopen(tmp, "w");
	int err = 0;

	if (!f) {
		err = -errno;
		free(tmp);
		return err;
	}
	if (fwrite(buf, 1, len, f) != len || fflush(f) || fsync(fileno(f)))
		err = errno ? -errno : -EIO;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	free(tmp);
	return err;
}

/*
 * The unsigned number at the start of s: decimal digits, or with hex also
 * "0x" and hex digits.  Unlike strtoull, no white space and no sign: it
 * skips the one and takes the other, so " -1" came back as 2^64 - 1 with
 * no error.  *end is the first character after the number.
 */
static int parse_uint_prefix(const char *s, bool hex, uint64_t *out, const char **end)
{
	const char *p = s;
	unsigned base = 10;
	uint64_t v = 0;
	bool digits = false, over = false;

	if (hex && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	for (;; p++) {
		unsigned d;

		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			break;
		digits = true;
		if (v > (UINT64_MAX - d) / base)
			over = true;
		else
			v = v * base + d;
	}
	*end = p;
	if (!digits)
		return -EINVAL;
	if (over)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_u64(const char *s, bool hex, uint64_t *out)
{
	const char *end;
	uint64_t v;
	int err;

	if (!s)
		return -EINVAL;
	err = parse_uint_prefix(s, hex, &v, &end);
	if (err == -EINVAL || *end)
		return -EINVAL;
	if (err)
		return err;
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t *out, bool allow_zero)
{
	const char *end;
	uint64_t v;
	unsigned shift = 0;
	int err;

	if (!s)
		return -EINVAL;
	err = parse_uint_prefix(s, false, &v, &end);
	if (err == -EINVAL)
		return err;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	default: break;
	}
	if (shift && end[0] == 'i' && end[1] == 'B')
		end += 2;
	else if (*end == 'B' || *end == 'b')
		end++;
	if (*end)
		return -EINVAL;
	if (err || v > (PH_SIZE_MAX >> shift))
		return -ERANGE;
	v <<= shift;
	if (!v && !allow_zero)
		return -ERANGE;
	*out = v;
	return 0;
}

const char *format_size(uint64_t bytes, char *buf, size_t size)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned u = 0;
	double v = (double)bytes;

	while (v >= 1024 && u + 1 < ARRAY_SIZE(unit)) {
		v /= 1024;
		u++;
	}
	if (v == (double)(uint64_t)v)
		snprintf(buf, size, "%" PRIu64 " %s", (uint64_t)v, unit[u]);
	else
		snprintf(buf, size, "%.1f %s", v, unit[u]);
	return buf;
}

double now_mono_raw(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
