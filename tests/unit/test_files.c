// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_files.c - the one writer of output files (write_file_atomic, and
 * outset_stage/commit for outputs written together) and its
 * check before measuring (output_path_check), in a private temporary
 * directory: what is refused (a symbolic link, a FIFO, a device, a
 * directory), what a planted symbolic link at the temporary name the old
 * writer used (PATH.tmp.PID) cannot do, "-" for standard output, and the
 * modes the result gets.  Every outcome is read back with lstat/read, not
 * through the code under test.
 */
#include "unit.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static char dir[] = "/tmp/pagehop-files-XXXXXX";

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/pagehop-files-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	chmod(dir, 0700);
	return nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *in_dir(const char *name)
{
	static char buf[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

/* The whole file at path, read without following a symbolic link. */
static const char *contents(const char *path)
{
	static char buf[256];
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
	ssize_t n;

	assert_true(fd >= 0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	assert_true(n >= 0);
	buf[n] = '\0';
	return buf;
}

static void put(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(chmod(path, mode), 0);
}

static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static mode_t kind(const char *path)
{
	struct stat st;

	assert_int_equal(lstat(path, &st), 0);
	return st.st_mode & S_IFMT;
}

static mode_t perms(const char *path)
{
	struct stat st;

	assert_int_equal(lstat(path, &st), 0);
	return st.st_mode & 07777;
}

static void test_replaces_regular_file(void **state)
{
	const char *out = in_dir("out.json");
	char why[256] = "";

	struct stat st;

	(void)state;
	put(out, "old\n", 0640);
	/* Root replacing a user's file leaves it the user's. */
	if (!geteuid())
		assert_int_equal(chown(out, 65534, 65534), 0);
	assert_int_equal(write_file_atomic(out, "new\n", 4, why, sizeof(why)), 0);
	assert_string_equal(contents(out), "new\n");
	/* The file's mode is kept, and no temporary is left beside it. */
	assert_int_equal(perms(out), 0640);
	assert_int_equal(entries(), 1);
	assert_int_equal(lstat(out, &st), 0);
	if (!geteuid())
		assert_int_equal(st.st_uid, 65534);
}

static void test_new_file_mode(void **state)
{
	char why[256];
	mode_t old = umask(022);

	(void)state;
	assert_int_equal(write_file_atomic(in_dir("a"), "a", 1, why, sizeof(why)), 0);
	assert_int_equal(perms(in_dir("a")), 0644);
	umask(077);
	assert_int_equal(write_file_atomic(in_dir("b"), "b", 1, why, sizeof(why)), 0);
	assert_int_equal(perms(in_dir("b")), 0600);
	umask(old);
	assert_int_equal(entries(), 2);
}

/*
 * The old writer opened PATH.tmp.PID with fopen("w"): a symbolic link
 * planted there made it write through to any file.
 */
static void test_planted_temporary_link(void **state)
{
	const char *victim = in_dir("victim"), *out = in_dir("out.json");
	char planted[256], why[256];

	(void)state;
	snprintf(planted, sizeof(planted), "%s.tmp.%d", out, (int)getpid());
	put(victim, "victim\n", 0600);
	assert_int_equal(symlink(victim, planted), 0);
	/* Once with no out.json yet, once replacing it. */
	for (int i = 0; i < 2; i++) {
		assert_int_equal(write_file_atomic(out, "measured\n", 9, why, sizeof(why)), 0);
		assert_string_equal(contents(victim), "victim\n");
		assert_string_equal(contents(out), "measured\n");
		assert_int_equal(kind(planted), S_IFLNK);
		assert_int_equal(kind(out), S_IFREG);
		assert_int_equal(entries(), 3);
	}
}

static void expect_refused(const char *path, mode_t was, const char *words)
{
	char why[256] = "";
	int err;

	/* A FIFO opened for writing would block: fail instead of hanging. */
	alarm(10);
	err = write_file_atomic(path, "x\n", 2, why, sizeof(why));
	alarm(0);
	if (err >= 0)
		fail_msg("%s: written, expected a refusal", path);
	if (!strstr(why, words))
		fail_msg("%s: refused with '%s', expected it to say '%s'", path, why, words);
	assert_int_equal(kind(path), was);
	err = output_path_check(path, why, sizeof(why));
	if (err >= 0)
		fail_msg("%s: output_path_check passed it", path);
	if (!strstr(why, words))
		fail_msg("%s: checked with '%s', expected it to say '%s'", path, why, words);
	assert_int_equal(kind(path), was);
}

/* Decided: a symbolic link is refused, never followed nor replaced. */
static void test_target_symlink(void **state)
{
	const char *victim = in_dir("victim"), *link = in_dir("out.json");

	(void)state;
	put(victim, "victim\n", 0600);
	assert_int_equal(symlink(victim, link), 0);
	expect_refused(link, S_IFLNK, "symbolic link");
	assert_string_equal(contents(victim), "victim\n");
	/* A dangling one creates nothing where it points. */
	assert_int_equal(symlink(in_dir("nowhere"), in_dir("dangling")), 0);
	expect_refused(in_dir("dangling"), S_IFLNK, "symbolic link");
	assert_int_equal(access(in_dir("nowhere"), F_OK), -1);
	assert_int_equal(entries(), 3);
}

static void test_target_fifo(void **state)
{
	(void)state;
	assert_int_equal(mkfifo(in_dir("fifo"), 0600), 0);
	expect_refused(in_dir("fifo"), S_IFIFO, "FIFO");
	assert_int_equal(entries(), 1);
}

static void test_target_device(void **state)
{
	(void)state;
	/* /dev/null's numbers, made here so that nothing in /dev is at stake. */
	if (mknod(in_dir("null"), S_IFCHR | 0666, makedev(1, 3))) {
		fprintf(stderr, "test_target_device: mknod: %s; skipped (needs root)\n",
			strerror(errno));
		skip();
	}
	expect_refused(in_dir("null"), S_IFCHR, "device");
	assert_int_equal(entries(), 1);
}

static void test_target_directory(void **state)
{
	char why[256];

	(void)state;
	assert_int_equal(mkdir(in_dir("sub"), 0700), 0);
	expect_refused(in_dir("sub"), S_IFDIR, "directory");
	assert_int_equal(write_file_atomic(in_dir("sub"), "x", 1, why, sizeof(why)), -EISDIR);
	assert_int_equal(entries(), 1);
}

static void test_stdout(void **state)
{
	int saved, fd;
	char why[256], cwd[512];

	(void)state;
	/* "-" is standard output, not a file named "-" in the current directory. */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	fd = open(in_dir("captured"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	fflush(stdout);
	saved = dup(1);
	dup2(fd, 1);
	close(fd);
	assert_int_equal(write_file_atomic("-", "to stdout\n", 10, why, sizeof(why)), 0);
	assert_int_equal(output_path_check("-", why, sizeof(why)), 0);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	assert_int_equal(chdir(cwd), 0);
	assert_string_equal(contents(in_dir("captured")), "to stdout\n");
	assert_int_equal(entries(), 1);
}

static void test_check(void **state)
{
	char why[256];

	(void)state;
	/* A new name in a writable directory, and a regular file: fine, and untouched. */
	assert_int_equal(output_path_check(in_dir("new.json"), why, sizeof(why)), 0);
	assert_int_equal(access(in_dir("new.json"), F_OK), -1);
	put(in_dir("old.json"), "old\n", 0644);
	assert_int_equal(output_path_check(in_dir("old.json"), why, sizeof(why)), 0);
	assert_string_equal(contents(in_dir("old.json")), "old\n");
	assert_int_equal(entries(), 1);
	/* A directory that does not exist, and an empty name. */
	assert_int_equal(output_path_check(in_dir("none/x.json"), why, sizeof(why)), -ENOENT);
	assert_int_equal(write_file_atomic(in_dir("none/x.json"), "x", 1, why, sizeof(why)), -ENOENT);
	assert_true(output_path_check("", why, sizeof(why)) < 0);
	assert_true(write_file_atomic("", "x", 1, why, sizeof(why)) < 0);
	/* A directory this user cannot write to (root can write anywhere). */
	assert_int_equal(mkdir(in_dir("ro"), 0555), 0);
	if (geteuid()) {
		assert_int_equal(output_path_check(in_dir("ro/x.json"), why, sizeof(why)), -EACCES);
		assert_int_equal(write_file_atomic(in_dir("ro/x.json"), "x", 1, why, sizeof(why)), -EACCES);
	}
	assert_int_equal(entries(), 2);
}

/* Temporaries go to $TMPDIR, or /tmp when it is unset or empty. */
/*
 * Outputs written together (outset_stage/commit/discard): the third of
 * three fails, and the two staged before it leave nothing behind; all
 * staged, nothing is in place before the commit, and everything after it.
 */
static void test_outset(void **state)
{
	struct ph_outset set = { 0 };
	const char *failed = "x";
	char why[256];

	(void)state;
	assert_int_equal(outset_stage(&set, in_dir("a.asl"), "A\n", 2, why, sizeof(why)), 0);
	assert_int_equal(outset_stage(&set, in_dir("b.asl"), "B\n", 2, why, sizeof(why)), 0);
	assert_int_equal(entries(), 2);		/* the two temporaries */
	assert_int_equal(outset_stage(&set, in_dir("none/c.xml"), "C", 1, why, sizeof(why)), -ENOENT);
	outset_discard(&set);
	assert_int_equal(entries(), 0);
	put(in_dir("b.asl"), "old\n", 0640);
	assert_int_equal(outset_stage(&set, in_dir("a.asl"), "A\n", 2, why, sizeof(why)), 0);
	assert_int_equal(outset_stage(&set, in_dir("b.asl"), "B\n", 2, why, sizeof(why)), 0);
	assert_int_equal(access(in_dir("a.asl"), F_OK), -1);	/* not before the commit */
	assert_string_equal(contents(in_dir("b.asl")), "old\n");
	assert_int_equal(outset_commit(&set, &failed, why, sizeof(why)), 0);
	assert_null(failed);
	outset_discard(&set);
	assert_int_equal(entries(), 2);
	assert_string_equal(contents(in_dir("a.asl")), "A\n");
	assert_string_equal(contents(in_dir("b.asl")), "B\n");
}

static void test_tmp_template(void **state)
{
	static const struct {
		const char *tmpdir;	/* NULL: unset */
		const char *want;
	} cases[] = {
		{ NULL, "/tmp/pagehop-plot-XXXXXX" },
		{ "", "/tmp/pagehop-plot-XXXXXX" },
		{ "/var/tmp", "/var/tmp/pagehop-plot-XXXXXX" },
		{ "/var/tmp//", "/var/tmp/pagehop-plot-XXXXXX" },
		{ "/", "/pagehop-plot-XXXXXX" },
		{ "rel dir", "rel dir/pagehop-plot-XXXXXX" },
	};
	char *saved = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *t;

		if (cases[i].tmpdir)
			setenv("TMPDIR", cases[i].tmpdir, 1);
		else
			unsetenv("TMPDIR");
		t = ph_tmp_template("plot");
		assert_string_equal(t, cases[i].want);
		free(t);
	}
	/* And mkdtemp makes it where TMPDIR says. */
	setenv("TMPDIR", dir, 1);
	{
		char *t = ph_tmp_template("unit");
		struct stat st;

		assert_non_null(mkdtemp(t));
		assert_int_equal(strncmp(t, dir, strlen(dir)), 0);
		assert_int_equal(lstat(t, &st), 0);
		assert_true(S_ISDIR(st.st_mode));
		assert_int_equal(rmdir(t), 0);
		free(t);
	}
	if (saved)
		setenv("TMPDIR", saved, 1);
	else
		unsetenv("TMPDIR");
	free(saved);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_replaces_regular_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_new_file_mode, setup, teardown),
		cmocka_unit_test_setup_teardown(test_planted_temporary_link, setup, teardown),
		cmocka_unit_test_setup_teardown(test_target_symlink, setup, teardown),
		cmocka_unit_test_setup_teardown(test_target_fifo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_target_device, setup, teardown),
		cmocka_unit_test_setup_teardown(test_target_directory, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stdout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check, setup, teardown),
		cmocka_unit_test_setup_teardown(test_outset, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tmp_template, setup, teardown),
	};

	return cmocka_run_group_tests_name("files", tests, NULL, NULL);
}
