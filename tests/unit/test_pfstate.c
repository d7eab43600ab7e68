// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pfstate.c - pagehop.ko's prefetcher save and restore bookkeeping
 * (kmod/pagehop_pfstate.c, the same file the module builds) against a
 * simulated machine: 4 CPUs on 2 cores, CPU n and n + 2 SMT siblings
 * sharing one register per core, as Intel's MSR 0x1A4 is.  Every expected
 * register value below is worked out by hand in the comment beside it.
 */
#include "unit.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "../../kmod/pagehop_pfstate.c"

#define NCPU	4
#define MASK	0xfULL

struct machine {
	u64 msr[2];		/* one register per core */
	u64 writable;		/* bits a write can change */
	bool online[NCPU];
	int writes;
	int fail_read;		/* the next read fails with this -errno */
};

static u32 core_of(u32 cpu)
{
	return cpu % 2;
}

static int m_read(void *ctx, u32 cpu, u64 *val)
{
	struct machine *m = ctx;

	if (m->fail_read) {
		int e = m->fail_read;

		m->fail_read = 0;
		return e;
	}
	assert_true(m->online[cpu]);
	*val = m->msr[core_of(cpu)];
	return 0;
}

static int m_write(void *ctx, u32 cpu, u64 val)
{
	struct machine *m = ctx;
	u64 *r = &m->msr[core_of(cpu)];

	assert_true(m->online[cpu]);
	*r = (*r & ~m->writable) | (val & m->writable);
	m->writes++;
	return 0;
}

static u64 m_key(void *ctx, u32 cpu)
{
	(void)ctx;
	return core_of(cpu);
}

static int m_online_cpu(void *ctx, u64 key)
{
	struct machine *m = ctx;

	for (u32 c = 0; c < NCPU; c++)
		if (m->online[c] && core_of(c) == key)
			return (int)c;
	return -1;
}

struct fixture {
	struct machine m;
	struct pagehop_pfreg reg[NCPU];
	struct pagehop_pfstate s;
	struct pagehop_pfops ops;
	unsigned long fd_a[1], fd_b[1];
};

static struct fixture *setup(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->m.writable = ~0ULL;
	for (int c = 0; c < NCPU; c++)
		f->m.online[c] = true;
	f->s = (struct pagehop_pfstate){ .reg = f->reg, .nr = NCPU, .mask = MASK };
	f->ops = (struct pagehop_pfops){ .read = m_read, .write = m_write, .key = m_key,
					 .online_cpu = m_online_cpu, .ctx = &f->m };
	return f;
}

/* SET through fd on cpu; returns what the module would report. */
static u64 set(struct fixture *f, unsigned long *fd, u32 cpu, u64 disable, u64 *orig)
{
	u64 now = ~0ULL, o;

	assert_int_equal(pagehop_pfstate_set(&f->s, &f->ops, fd, cpu, disable, &now, orig ? orig : &o), 0);
	return now;
}

/*
 * Both siblings of core 0 set by two files, released A then B.  Before
 * per-core state, CPU 2's "original" was saved after CPU 0's SET had
 * already changed the shared register, so releasing restored 0xf: every
 * prefetcher of the core left off.  Now the first value (0) is kept.
 */
static void test_siblings_a_then_b(void **state)
{
	struct fixture f;
	u64 orig;

	(void)state;
	setup(&f);
	assert_true(set(&f, f.fd_a, 0, 0xf, &orig) == 0xf && orig == 0);
	/* CPU 2 shares the register: it already holds 0xf, the original is still 0. */
	assert_true(set(&f, f.fd_b, 2, 0xf, &orig) == 0xf && orig == 0);
	assert_int_equal(pagehop_pfstate_release(&f.s, &f.ops, f.fd_a), 0);
	assert_true(f.m.msr[0] == 0xf);		/* B still holds it */
	assert_int_equal(pagehop_pfstate_release(&f.s, &f.ops, f.fd_b), 0);
	assert_true(f.m.msr[0] == 0);		/* as found */
	assert_true(f.m.msr[1] == 0);		/* core 1 never touched */
}

static void test_siblings_b_then_a(void **state)
{
	struct fixture f;

	(void)state;
	setup(&f);
	set(&f, f.fd_a, 0, 0xf, NULL);
	set(&f, f.fd_b, 2, 0xf, NULL);
	assert_int_equal(pagehop_pfstate_release(&f.s, &f.ops, f.fd_b), 0);
	assert_true(f.m.msr[0] == 0xf);
	assert_int_equal(pagehop_pfstate_release(&f.s, &f.ops, f.fd_a), 0);
	assert_true(f.m.msr[0] == 0);
}

/*
 * One file sets both siblings to different values (0x1, then 0x3): one
 * register, one reference, the first original (0) kept; GET on either
 * sibling says so.
 */
static void test_one_file_both_siblings(void **state)
{
	struct fixture f;
	u64 cur, orig;

	(void)state;
	setup(&f);
	set(&f, f.fd_a, 0, 0x1, NULL);
	assert_true(set(&f, f.fd_a, 2, 0x3, &orig) == 0x3 && orig == 0);
	assert_int_equal(f.reg[0].users, 1);
	assert_int_equal(pagehop_pfstate_get(&f.s, &f.ops, 0, &cur, &orig), 0);
	assert_true(cur == 0x3 && orig == 0);
	assert_int_equal(pagehop_pfstate_release(&f.s, &f.ops, f.fd_a), 0);
	assert_true(f.m.msr[0] == 0);
	/* Nothing remembered: GET says the register as it is. */
	assert_int_equal(pagehop_pfstate_get(&f.s, &f.ops, 2, &cur, &orig), 0);
	assert_true(cur == 0 && orig == 0);
}

/*
 * Overlapping files on core 1: A sets 0x1, B then 0x3; A goes first, and
 * B's setting (0x3) must stay until B goes; then 0.  And the other way
 * round with B undoing A's bit (A 0x1, B 0x0): A going must not write, B
 * going leaves 0, the original (a per-CPU record of B's would have
 * "restored" 0x1).
 */
static void test_overlapping_files(void **state)
{
	struct fixture f;

	(void)state;
	setup(&f);
	set(&f, f.fd_a, 1, 0x1, NULL);
	set(&f, f.fd_b, 1, 0x3, NULL);
	pagehop_pfstate_release(&f.s, &f.ops, f.fd_a);
	assert_true(f.m.msr[1] == 0x3);
	pagehop_pfstate_release(&f.s, &f.ops, f.fd_b);
	assert_true(f.m.msr[1] == 0);

	setup(&f);
	set(&f, f.fd_a, 1, 0x1, NULL);
	set(&f, f.fd_b, 3, 0x0, NULL);
	f.m.writes = 0;
	pagehop_pfstate_release(&f.s, &f.ops, f.fd_a);
	assert_int_equal(f.m.writes, 0);
	pagehop_pfstate_release(&f.s, &f.ops, f.fd_b);
	assert_true(f.m.msr[1] == 0);
}

/*
 * Only what pagehop changed goes back.  Core 0 holds 0x30 (bits outside
 * the prefetcher mask) and no disable bit.  SET 0x5 makes it 0x35.  Then
 * someone else (wrmsr) sets bit 1 and clears bit 2: 0x33.  At release the
 * bits pagehop changed are 0 and 2; bit 2 no longer holds what pagehop
 * left, so it stays; bit 0 goes back to 0; bit 1 (not pagehop's) and the
 * high bits stay: 0x32.
 */
static void test_partially_changed_register(void **state)
{
	struct fixture f;

	(void)state;
	setup(&f);
	f.m.msr[0] = 0x30;
	assert_true(set(&f, f.fd_a, 0, 0x5, NULL) == 0x5);
	assert_true(f.m.msr[0] == 0x35);
	f.m.msr[0] = 0x33;
	pagehop_pfstate_release(&f.s, &f.ops, f.fd_a);
	assert_true(f.m.msr[0] == 0x32);
}

/*
 * A write the register does not fully take: bit 3 cannot be set here.
 * SET 0xf reports what the register holds, read back: 0x7; release
 * restores those three bits: 0.
 */
static void test_write_partly_taken(void **state)
{
	struct fixture f;

	(void)state;
	setup(&f);
	f.m.writable = ~0x8ULL;
	assert_true(set(&f, f.fd_a, 0, 0xf, NULL) == 0x7);
	assert_true(f.reg[0].changed == 0x7);
	pagehop_pfstate_release(&f.s, &f.ops, f.fd_a);
	assert_true(f.m.msr[0] == 0);
}

/*
 * CPUs offline at release.  Core 1 set through CPU 1, which then goes
 * offline: the restore goes through its sibling, CPU 3.  Then with both
 * offline: the restore is owed (release says 1), the register keeps 0xf;
 * another file's SET on CPU 3 once it is back keeps the original (0); and
 * when that file goes, 0.  Last, owed and settled when a CPU comes back.
 */
static void test_offline_at_release(void **state)
{
	struct fixture f;
	u64 orig;

	(void)state;
	setup(&f);
	set(&f, f.fd_a, 1, 0xf, NULL);
	f.m.online[1] = false;
	assert_int_equal(pagehop_pfstate_release(&f.s, &f.ops, f.fd_a), 0);
	assert_true(f.m.msr[1] == 0);

	setup(&f);
	set(&f, f.fd_a, 1, 0xf, NULL);
	f.m.online[1] = f.m.online[3] = false;
	assert_int_equal(pagehop_pfstate_release(&f.s, &f.ops, f.fd_a), 1);
	assert_true(f.m.msr[1] == 0xf);
	assert_int_equal(pagehop_pfstate_settle(&f.s, &f.ops, -1), 1);	/* still none online */
	f.m.online[3] = true;
	assert_true(set(&f, f.fd_b, 3, 0x3, &orig) == 0x3 && orig == 0);
	assert_int_equal(pagehop_pfstate_release(&f.s, &f.ops, f.fd_b), 0);
	assert_true(f.m.msr[1] == 0);

	setup(&f);
	set(&f, f.fd_a, 1, 0xf, NULL);
	f.m.online[1] = f.m.online[3] = false;
	assert_int_equal(pagehop_pfstate_release(&f.s, &f.ops, f.fd_a), 1);
	f.m.online[0] = false;				/* core 0 is no business of this */
	assert_int_equal(pagehop_pfstate_settle(&f.s, &f.ops, 2), 1);
	f.m.online[3] = true;
	assert_int_equal(pagehop_pfstate_settle(&f.s, &f.ops, 3), 0);
	assert_true(f.m.msr[1] == 0);
	assert_false(f.reg[0].used || f.reg[1].used);
}

/* A read that fails leaves nothing behind; a full table says ENOSPC. */
static void test_failures(void **state)
{
	struct fixture f;
	u64 now, orig;

	(void)state;
	setup(&f);
	f.m.fail_read = -EIO;
	assert_int_equal(pagehop_pfstate_set(&f.s, &f.ops, f.fd_a, 0, 0xf, &now, &orig), -EIO);
	assert_false(f.reg[0].used);
	assert_true(f.fd_a[0] == 0 && f.m.msr[0] == 0);
	f.s.nr = 1;
	set(&f, f.fd_a, 0, 0x1, NULL);
	assert_int_equal(pagehop_pfstate_set(&f.s, &f.ops, f.fd_a, 1, 0x1, &now, &orig), -ENOSPC);
	assert_true(f.m.msr[1] == 0);
	/* Bits outside the mask are never written. */
	assert_true(set(&f, f.fd_a, 0, 0xff, NULL) == 0xf && f.m.msr[0] == 0xf);
}

/* The Intel models with MSR 0x1A4's four bits, and some without. */
static void test_intel_models(void **state)
{
	(void)state;
	assert_true(pagehop_pf_intel_model_known(6, 0x2a));	/* Sandy Bridge */
	assert_true(pagehop_pf_intel_model_known(6, 0x55));	/* Skylake-SP */
	assert_true(pagehop_pf_intel_model_known(6, 0x8f));	/* Sapphire Rapids */
	assert_false(pagehop_pf_intel_model_known(6, 0x57));	/* Xeon Phi Knights Landing */
	assert_false(pagehop_pf_intel_model_known(6, 0x85));	/* Xeon Phi Knights Mill */
	assert_false(pagehop_pf_intel_model_known(6, 0x5c));	/* Atom Goldmont */
	assert_false(pagehop_pf_intel_model_known(6, 0x4d));	/* Atom Silvermont */
	assert_false(pagehop_pf_intel_model_known(6, 0x97));	/* Alder Lake (hybrid) */
	assert_false(pagehop_pf_intel_model_known(15, 0x2a));	/* not family 6 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_siblings_a_then_b),
		cmocka_unit_test(test_siblings_b_then_a),
		cmocka_unit_test(test_one_file_both_siblings),
		cmocka_unit_test(test_overlapping_files),
		cmocka_unit_test(test_partially_changed_register),
		cmocka_unit_test(test_write_partly_taken),
		cmocka_unit_test(test_offline_at_release),
		cmocka_unit_test(test_failures),
		cmocka_unit_test(test_intel_models),
	};

	return cmocka_run_group_tests_name("pfstate", tests, NULL, NULL);
}
