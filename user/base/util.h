/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * util.h - small helpers every part of the command uses: error reporting in
 * the one house format, sysfs reads, sizes.
 */
#ifndef PAGEHOP_UTIL_H
#define PAGEHOP_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Exit codes of the command; ph_exit_codes[] says what each means, for
 * 'pagehop help' and docs/pagehop.1's EXIT STATUS, which is made from it
 * (tests/host/test_docs.sh checks that the three agree).
 */
enum {
	PH_EXIT_OK = 0,
	PH_EXIT_FAIL = 1,	 /* a measurement or verification failed */
	PH_EXIT_USAGE = 2,	 /* bad options or input; nothing was written */
	PH_EXIT_MAGNITUDE = 3,	 /* pagehop slit: the measurement agrees with the
				  * SLIT in order and levels, not in magnitude */
	PH_EXIT_UNSUPPORTED = 4, /* the machine lacks what was asked for */
	PH_EXIT_CANNOT_TELL = 5, /* no firm verdict: the evidence is missing
				  * (slit: cells with too few samples or a CI
				  * missed; compare: a document skipped or a
				  * model too small to judge) */
	PH_EXIT_INTERRUPTED = 130,
};

/*
 * Every exit code with its meaning in a few words ('pagehop help' prints
 * them) and the details the man page adds (its EXIT STATUS is made from this
 * table: 'pagehop --man-exit-status'), in increasing order.
 */
struct ph_exit_code {
	int code;
	const char *meaning;
	const char *detail;	/* or NULL */
};
extern const struct ph_exit_code ph_exit_codes[];
extern const size_t ph_nexit_codes;

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define KiB (1ULL << 10)
#define MiB (1ULL << 20)
#define GiB (1ULL << 30)
#define TiB (1ULL << 40)

/*
 * The largest byte size an option takes: 1 PiB, beyond any machine's memory
 * (x86-64 maps at most 128 TiB per process with 4-level page tables), and
 * 14 bits short of 2^64, so that rounding up to a page or multiplying by a
 * thread count (at most 4096) cannot wrap.
 */
#define PH_SIZE_MAX (1024 * TiB)

/* Name of the running (sub)command for messages: "pagehop info". */
void ph_set_progname(const char *name);
const char *ph_progname(void);

/* The command line as given, shell-quoted, for provenance. */
void ph_set_cmdline(int argc, char *const argv[]);
const char *ph_cmdline(void);

/*
 * s as a message may quote it: a newline, tab, carriage return and escape
 * as \n, \t, \r, \e, every other control character (C0, DEL, and C1 in
 * UTF-8) as \xNN, a backslash as it is; at most max bytes of s (0: all
 * that fits) then "...".  Into buf of len bytes; returns buf.  ph_err()
 * and the like pass their whole line through it, and so do the readers
 * quoting a file's contents.
 */
const char *ph_shown(const char *s, size_t max, char *buf, size_t len);

/* "pagehop info: <what>: <why>" on stderr; one line. */
void ph_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same, with ": strerror(err)" appended; err is a positive errno. */
void ph_errno(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * The text of the last ph_err or ph_errno message, without "pagehop info: "
 * ("" when none since ph_clear_last_err): for a command that must also say
 * the reason on stdout (check's first line).
 */
const char *ph_last_err(void);
void ph_clear_last_err(void);
/* "pagehop info: warning: ..." */
void ph_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * fn is called before each of these messages reaches stderr (NULL: none):
 * a progress line on the terminal (progress.h) clears itself, so that the
 * message is a line of its own.
 */
void ph_set_before_message(void (*fn)(void));

/*
 * The first error writing stdout, kept for the one message main prints at
 * the end (stdio's error flag keeps that there was one, not which).
 */
void ph_stdout_failed(int err);
int ph_stdout_error(void);

/* Allocation that cannot fail quietly: aborts with a message on ENOMEM. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/*
 * Append one zeroed element of size sz to the array *v of *n elements:
 * *v is reallocated, *n grows by one; returns the new element.
 */
void *xappend(void *v, int *n, size_t sz);
/*
 * Room in the array *v for n elements of size sz, *cap its capacity in
 * elements: when n is beyond it, *v is reallocated to twice as many (or n,
 * if more), so that appending one element at a time costs amortised O(1).
 * The new room is not zeroed.  Returns *v.
 */
void *xreserve(void *v, size_t *cap, size_t n, size_t sz);

/* "0,2,4": n ints as a plain comma list in out (cut short at size). */
void ints_text(const int *v, int n, char *out, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Read a small sysfs or procfs file into buf, without the trailing newline.
 * Returns the length or -errno.
 */
int read_text(const char *path, char *buf, size_t size);
/* Read one unsigned integer (decimal or 0x hex); -errno on failure. */
int read_u64(const char *path, uint64_t *val);
bool path_exists(const char *path);
/* Whether err (-errno) says a permission is missing: EACCES, EPERM, EROFS. */
bool ph_perm_error(int err);

/*
 * The one way pagehop writes an output file (--save, --emit-acpi, --plot).
 * "-" is standard output.  Otherwise path must be absent or a regular
 * file: a symbolic link (even to a regular file), a directory, a device,
 * a FIFO or a socket is refused.  The bytes go to a new file beside path,
 * created with O_EXCL|O_NOFOLLOW under a random name, fsync'ed and renamed
 * over path, so that path never holds half a file; a replaced file keeps
 * its permissions (and, when root writes it, its owner), a new one gets
 * 0666 less the umask.  0, or -errno with why (size bytes) saying what was
 * wrong, to follow "path: ".
 */
int write_file_atomic(const char *path, const void *buf, size_t len, char *why, size_t size);
/*
 * Files written together or not at all (the outputs of one run): each is
 * staged, its bytes written beside its target under a temporary name as
 * write_file_atomic() does (the same refusals); only when every one is
 * staged does outset_commit() rename them into place, in order, and write
 * the staged standard output ("-").  outset_discard() removes the
 * temporaries not renamed.  A rename can still fail after another
 * succeeded (the directory changed in between): *failed names it.
 */
struct ph_staged {
	char *path, *tmp, *dir;	/* tmp NULL: standard output, buf[len] */
	char *buf;
	size_t len;
};
struct ph_outset {
	struct ph_staged *f;
	int n;
};
/* 0, or -errno with why (to follow "path: "); nothing staged then. */
int outset_stage(struct ph_outset *set, const char *path, const void *buf, size_t len,
		 char *why, size_t size);
/* Rename every staged file into place; 0, or -errno with *failed (valid until the discard) and why. */
int outset_commit(struct ph_outset *set, const char **failed, char *why, size_t size);
void outset_discard(struct ph_outset *set);
/*
 * Whether write_file_atomic(path) can succeed, checked before measuring:
 * the same refusals, and a file really created (and removed) in path's
 * directory.  Leaves path as it was.  0, or -errno with why.
 */
int output_path_check(const char *path, char *why, size_t size);

/*
 * The template for mkstemp() or mkdtemp() of a temporary named for what:
 * "$TMPDIR/pagehop-WHAT-XXXXXX", or under /tmp when TMPDIR is unset or
 * empty, as mktemp(1) does.  A TMPDIR that does not exist is not passed
 * over for /tmp: mkstemp then fails, and its error names the directory.
 * Malloc'd; the caller frees it.
 */
char *ph_tmp_template(const char *what);

/*
 * Parse a byte size: a decimal number with an optional binary suffix
 * k/K, m/M, g/G, t/T (powers of 1024), optionally followed by "B" or "iB".
 * No white space, no sign.  Returns 0 or -EINVAL (malformed) / -ERANGE
 * (above PH_SIZE_MAX, or zero when !allow_zero).
 */
int parse_size(const char *s, uint64_t *out, bool allow_zero);
/*
 * Parse a whole string as an unsigned 64-bit number: decimal (a leading 0
 * is still decimal), or with hex also 0x hex.  No white space, no sign.
 * 0, -EINVAL (malformed) or -ERANGE (above 2^64 - 1).
 */
int parse_u64(const char *s, bool hex, uint64_t *out);
/* Format bytes as "4 KiB", "2 MiB", "1.5 GiB" into buf. */
const char *format_size(uint64_t bytes, char *buf, size_t size);

/* Seconds of CLOCK_MONOTONIC_RAW. */
double now_mono_raw(void);

#endif
