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
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const struct ph_exit_code ph_exit_codes[] = {
	{ PH_EXIT_OK, "ok; slit: the SLIT agrees, or there is nothing to compare; cxl: every entry judged agrees; check: OK", NULL },
	{ PH_EXIT_FAIL, "a measurement, verification or output failed; slit: the SLIT disagrees; cxl: an entry is off; check: WARNING",
	  "For slit, an ordering violation or a level mismatch.  An output is stdout (a full disk, a closed pipe: said in one line at the end, for every "
	  "command and for --help alike), a --save file or a plot.  A failed output makes any "
	  "verdict (0, 1, 3 or 5) 1, since the verdict did not reach its reader; check's is then "
	  "3, UNKNOWN; 2, 4 and 130 stay.  slit without --input exits 1 "
	  "for a measurement that failed as well as for a SLIT that disagrees: the one line on "
	  "stderr, or the verdict, says which.  interleave: a layout's pages counted back per "
	  "node do not match its weights (named on stderr and in its pages table)." },
	{ PH_EXIT_USAGE, "bad usage or input; nothing was written to stdout; check: CRITICAL (its bad usage is 3)",
	  "An unknown option, a malformed value (numbers are plain decimal digits, or 0x hex "
	  "where a 64-bit number is asked, with no space or sign; sizes are at most 1024T), a "
	  "node that does not exist, an input file that cannot be read or parsed, an output file "
	  "that cannot be written (checked before anything is measured; see OUTPUT FILES).  One "
	  "line on stderr names the option or the file and the expected form." },
	{ PH_EXIT_MAGNITUDE, "slit: the SLIT has the measured order and levels, not the magnitudes; check: UNKNOWN",
	  "The measurement agrees with the SLIT in order and levels but not in magnitude "
	  "(outside --tolerance).  check exits 0 to 3 for OK, WARNING, CRITICAL and UNKNOWN, "
	  "its bad usage, an unreadable baseline and a signal among UNKNOWN's causes." },
	{ PH_EXIT_UNSUPPORTED, "the machine, or the caller, lacks what was asked for",
	  "NUMA support, a page size, free memory on a node, or root where the command needs it "
	  "(reading back where the memory is, growing a hugetlb pool), for slit without --input "
	  "as for the command that measures.  The one line on stderr names what is missing." },
	{ PH_EXIT_CANNOT_TELL, "cannot tell: the evidence for a verdict is missing; check: never (it says UNKNOWN)",
	  "slit: some analysed cell has fewer than 6 samples or missed its CI target (its ci_met is "
	  "false), so no verdict is given; the verdict's lacking_cells names them, and a longer "
	  "--time (or a looser --ci) gives them the samples.  Figures without sample counts (a "
	  "published table, a CSV) are judged as given, and the verdict says so.  compare: no host "
	  "strays among the documents judged, but a document was skipped (it could not be read or "
	  "parsed: named on stderr and in the output) or a model has fewer hosts than needed to "
	  "judge its figures (UNKNOWN in the models table); a host that strays makes the exit "
	  "status 1 whatever was skipped.  cxl: no entry is off, but one could not be told (its "
	  "measurement missed its CI target, or the error is within the uncertainty of the "
	  "tolerance), or none could be judged." },
	{ PH_EXIT_INTERRUPTED, "interrupted by a signal; check: 3, UNKNOWN",
	  "SIGINT, SIGTERM, SIGHUP or SIGQUIT, whichever it was (see SIGNALS); what was measured "
	  "before is printed, with a note.  check says UNKNOWN and exits 3 instead, as for anything "
	  "it could not judge (docs/diagnostics.md gives its four codes).  Any other signal whose "
	  "default ends the process (SIGUSR1, SIGALRM, SIGXCPU, ...) ends it so, after putting back "
	  "the hugetlb pools it grew: the status is then 128 plus the signal's number." },
};
const size_t ph_nexit_codes = ARRAY_SIZE(ph_exit_codes);

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

const char *ph_shown(const char *s, size_t max, char *buf, size_t len)
{
	/* Pairs: a control character, the letter after the backslash. */
	static const char named[] = { '\n', 'n', '\t', 't', '\r', 'r', 0x1b, 'e' };
	size_t o = 0;

	if (!len)
		return buf;
	for (; *s && o + 9 < len; s++) {
		unsigned char c = (unsigned char)*s;
		const char *nm = memchr(named, c, sizeof(named));

		if (max && o >= max) {
			o += (size_t)snprintf(buf + o, len - o, "...");
			break;
		}
		if (nm && ((nm - named) & 1) == 0) {
			buf[o++] = '\\';
			buf[o++] = nm[1];
		} else if (c < 0x20 || c == 0x7f) {
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x", c);
		} else if (c == 0xc2 && (unsigned char)s[1] >= 0x80 && (unsigned char)s[1] < 0xa0) {
			/* A C1 control in UTF-8 (U+0080 to U+009F; U+009B is CSI). */
			o += (size_t)snprintf(buf + o, len - o, "\\xc2\\x%02x", (unsigned char)s[1]);
			s++;
		} else {
			buf[o++] = (char)c;
		}
	}
	buf[o] = '\0';
	return buf;
}

/* The last error's text, without the program's name (ph_last_err). */
static char last_err[512];
static void (*before_message)(void);

void ph_set_before_message(void (*fn)(void))
{
	before_message = fn;
}

static void vmsg(const char *prefix, int err, const char *fmt, va_list ap)
{
	/*
	 * Build the whole line first so that it reaches stderr in one write,
	 * then escape what it quotes: an option's value, a file's name, an
	 * unknown command, as they came.
	 */
	char line[1024], shown[1024 * 4 + 16];
	int n = snprintf(line, sizeof(line), "%s: %s", progname, prefix);

	if (n < 0 || (size_t)n >= sizeof(line))
		n = 0;
	vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	if (err) {
		size_t len = strlen(line);

		snprintf(line + len, sizeof(line) - len, ": %s", strerror(err));
	}
	/* "pagehop: " and the prefix hold no control character: the message
	 * starts at n in shown as in line. */
	if (before_message)
		before_message();
	fprintf(stderr, "%s\n", ph_shown(line, 0, shown, sizeof(shown)));
	if (!*prefix)
		snprintf(last_err, sizeof(last_err), "%s", shown + n);
}

const char *ph_last_err(void)
{
	return last_err;
}

void ph_clear_last_err(void)
{
	last_err[0] = '\0';
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

static int stdout_errno;

void ph_stdout_failed(int err)
{
	if (!stdout_errno)
		stdout_errno = err;
}

int ph_stdout_error(void)
{
	return stdout_errno;
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

void *xappend(void *v, int *n, size_t sz)
{
	void **pv = v;
	char *p = xrealloc(*pv, (size_t)(*n + 1) * sz);

	*pv = p;
	memset(p + (size_t)*n * sz, 0, sz);
	return p + (size_t)(*n)++ * sz;
}

void *xreserve(void *v, size_t *cap, size_t n, size_t sz)
{
	void **pv = v;

	if (n > *cap) {
		size_t want = *cap > n / 2 ? 2 * *cap : n;

		*pv = xrealloc(*pv, want * sz);
		*cap = want;
	}
	return *pv;
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

bool ph_perm_error(int err)
{
	return err == -EACCES || err == -EPERM || err == -EROFS;
}

/* "a FIFO", for "is a FIFO, not a regular file". */
static const char *file_kind(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFLNK: return "a symbolic link";
	case S_IFDIR: return "a directory";
	case S_IFIFO: return "a FIFO";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFSOCK: return "a socket";
	default: return "something other than a file";
	}
}

/*
 * path itself: absent, or a regular file (*st filled, *exists set).
 *
 * Anything else is refused, a symbolic link too, even to a regular file:
 * following it would let whoever can plant a link in a shared directory
 * choose the file that root overwrites, and replacing the link with a file
 * would silently undo a link the user made.  A device or FIFO is refused
 * rather than opened: the old writer renamed a regular file over
 * /dev/null, and a FIFO would block.  "-" is the way to standard output.
 */
static int target_check(const char *path, struct stat *st, bool *exists, char *why, size_t size)
{
	*exists = false;
	if (!*path) {
		snprintf(why, size, "an empty file name; give a file, or - for standard output");
		return -ENOENT;
	}
	if (lstat(path, st)) {
		if (errno == ENOENT)
			return 0;
		snprintf(why, size, "%s", strerror(errno));
		return -errno;
	}
	if (S_ISREG(st->st_mode)) {
		*exists = true;
		return 0;
	}
	snprintf(why, size, "is %s, not a regular file; pagehop only writes regular files (give a file name, or - for standard output)",
		 file_kind(st->st_mode));
	return S_ISDIR(st->st_mode) ? -EISDIR : S_ISLNK(st->st_mode) ? -ELOOP : -EINVAL;
}

/* The directory path is in: "." for "x", "/" for "/x". */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xasprintf("%.*s", (int)(slash - path), path);
}

/*
 * A new file in dir, under a random name no one can have planted:
 * O_CREAT|O_EXCL never opens what is there, O_NOFOLLOW says so for
 * links.  The fd, or -errno; *tmp is the name (the caller frees it).
 */
static int create_temp(const char *dir, mode_t mode, char **tmp)
{
	static unsigned counter;

	for (int tries = 0; tries < 64; tries++) {
		uint64_t r;
		int fd;

		if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
			r = ((uint64_t)getpid() << 32) ^ (uint64_t)(now_mono_raw() * 1e9) ^ ++counter;
		*tmp = xasprintf("%s/.pagehop-%016llx.tmp", dir, (unsigned long long)r);
		fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd >= 0)
			return fd;
		free(*tmp);
		*tmp = NULL;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/*
 * Whether rename() over an existing file will be allowed: in a sticky
 * directory (/tmp) only the file's owner or the directory's may replace it.
 */
static int sticky_check(const char *dir, const struct stat *st, char *why, size_t size)
{
	struct stat d;

	if (stat(dir, &d) || !(d.st_mode & S_ISVTX) || !geteuid() ||
	    st->st_uid == geteuid() || d.st_uid == geteuid())
		return 0;
	snprintf(why, size, "belongs to another user in the sticky directory %s: it cannot be replaced", dir);
	return -EPERM;
}

int output_path_check(const char *path, char *why, size_t size)
{
	struct stat st;
	bool exists;
	char *dir, *tmp = NULL;
	int fd, err;

	if (!strcmp(path, "-")) {
		if (fcntl(STDOUT_FILENO, F_GETFL) < 0) {
			snprintf(why, size, "standard output is closed");
			return -EBADF;
		}
		return 0;
	}
	err = target_check(path, &st, &exists, why, size);
	if (err)
		return err;
	dir = dir_of(path);
	err = exists ? sticky_check(dir, &st, why, size) : 0;
	if (!err) {
		/* The one sure test that the directory takes a new file: make one. */
		fd = create_temp(dir, 0600, &tmp);
		if (fd < 0) {
			err = fd;
			snprintf(why, size, "cannot create a file in %s: %s", dir, strerror(-err));
		} else {
			close(fd);
			unlink(tmp);
			free(tmp);
		}
	}
	free(dir);
	return err;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int outset_stage(struct ph_outset *set, const char *path, const void *buf, size_t len,
		 char *why, size_t size)
{
	struct ph_staged *f;
	struct stat st;
	bool exists;
	char *dir, *tmp = NULL;
	int fd, err;

	if (!strcmp(path, "-")) {
		/* Standard output cannot be taken back: it is written at the commit. */
		f = xappend(&set->f, &set->n, sizeof(*set->f));
		f->path = xstrdup(path);
		f->buf = xmalloc(len ? len : 1);
		memcpy(f->buf, buf, len);
		f->len = len;
		return 0;
	}
	err = target_check(path, &st, &exists, why, size);
	if (err)
		return err;
	dir = dir_of(path);
	err = exists ? sticky_check(dir, &st, why, size) : 0;
	if (err) {
		free(dir);
		return err;
	}
	/* A new file gets what open() would give it (0666 less the umask);
	 * a replaced one keeps its owner and permissions. */
	fd = create_temp(dir, exists ? 0600 : 0666, &tmp);
	if (fd < 0) {
		err = fd;
		snprintf(why, size, "cannot create a file in %s: %s", dir, strerror(-err));
		free(dir);
		return err;
	}
	if (exists && !geteuid() && (st.st_uid || st.st_gid) && fchown(fd, st.st_uid, st.st_gid))
		err = -errno;
	if (!err && exists && fchmod(fd, st.st_mode & 0777))
		err = -errno;
	if (!err)
		err = write_all(fd, buf, len);
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (err) {
		snprintf(why, size, "%s", strerror(-err));
		unlink(tmp);
		free(tmp);
		free(dir);
		return err;
	}
	f = xappend(&set->f, &set->n, sizeof(*set->f));
	f->path = xstrdup(path);
	f->tmp = tmp;
	f->dir = dir;
	return 0;
}

int outset_commit(struct ph_outset *set, const char **failed, char *why, size_t size)
{
	int err = 0;

	for (int k = 0; k < set->n && !err; k++) {
		struct ph_staged *f = &set->f[k];

		*failed = f->path;
		if (!f->tmp) {
			if (fwrite(f->buf, 1, f->len, stdout) != f->len || fflush(stdout)) {
				err = errno ? -errno : -EIO;
				ph_stdout_failed(-err);
				snprintf(why, size, "cannot write to standard output: %s", strerror(-err));
			}
			continue;
		}
		/* rename() replaces path itself, never what a link there points to. */
		if (rename(f->tmp, f->path)) {
			err = -errno;
			snprintf(why, size, "%s", strerror(-err));
		} else {
			/* The rename itself durable: best effort, the file is whole already. */
			int dfd = open(f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

			free(f->tmp);
			f->tmp = NULL;
			f->len = 0;
			if (dfd >= 0) {
				fsync(dfd);
				close(dfd);
			}
		}
	}
	if (!err)
		*failed = NULL;
	return err;
}

void outset_discard(struct ph_outset *set)
{
	for (int k = 0; k < set->n; k++) {
		if (set->f[k].tmp)
			unlink(set->f[k].tmp);
		free(set->f[k].tmp);
		free(set->f[k].dir);
		free(set->f[k].path);
		free(set->f[k].buf);
	}
	free(set->f);
	memset(set, 0, sizeof(*set));
}

int write_file_atomic(const char *path, const void *buf, size_t len, char *why, size_t size)
{
	struct ph_outset set = { 0 };
	const char *failed;
	int err = outset_stage(&set, path, buf, len, why, size);

	if (!err)
		err = outset_commit(&set, &failed, why, size);
	outset_discard(&set);
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

char *ph_tmp_template(const char *what)
{
	const char *dir = getenv("TMPDIR");
	size_t n;

	if (!dir || !*dir)
		dir = "/tmp";
	/* "/var/tmp/" and "/var/tmp" make the same name. */
	n = strlen(dir);
	while (n > 0 && dir[n - 1] == '/')
		n--;
	return xasprintf("%.*s/pagehop-%s-XXXXXX", (int)n, dir, what);
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

void ints_text(const int *v, int n, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (int i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(out + len, size - len, "%s%d", i ? "," : "", v[i]);
}
