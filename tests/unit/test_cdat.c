// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_cdat.c - the CDAT parser on tables built here byte by byte, in the
 * layout of QEMU's cdat= file and the kernel's endpoint CDAT attribute:
 * every field read back against the value written, every truncation and
 * every single-bit flip refused, a flip whose sum is mended either parsed
 * or refused with a reason (never read past the table: ASan), and the
 * figures as the kernel makes them, worked out by hand in the comments.
 */
#include "unit.h"
#include "table_bytes.h"

#include "acpi_hmat.h"
#include "cdat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Length and checksum of the table written so far. */
static void seal(struct bytes *w)
{
	uint8_t sum = 0;

	for (int i = 0; i < 4; i++)
		w->b[i] = (uint8_t)(w->n >> (8 * i));
	w->b[5] = 0;
	for (size_t i = 0; i < w->n; i++)
		sum = (uint8_t)(sum + w->b[i]);
	w->b[5] = (uint8_t)-sum;
}

static void sub(struct bytes *w, int type, int length)
{
	put(w, (uint64_t)type, 1), put(w, 0, 1), put(w, (uint64_t)length, 2);
}

/*
 * One 256 MiB volatile range, handle 0, as mkcdat-like tools write it:
 * read latency 150 ns (entry 150, base 1000 ps), write 250 ns, read
 * bandwidth 12000 MB/s (base 1), write 8000; its EFI type 1 (specific
 * purpose); then a switch's SSLBIS of two entries (ports 0x100 -> 0, 0 ->
 * 0x100, latency base 1000, entries 20 and 30); sequence 7.
 */
static void build(struct bytes *w)
{
	static const struct {
		int type, entry;
		uint64_t base;
	} lb[] = {
		{ PH_HMAT_READ_LATENCY, 150, 1000 },
		{ PH_HMAT_WRITE_LATENCY, 250, 1000 },
		{ PH_HMAT_READ_BANDWIDTH, 12000, 1 },
		{ PH_HMAT_WRITE_BANDWIDTH, 8000, 1 },
	};

	memset(w, 0, sizeof(*w));
	put(w, 0, 4), put(w, 1, 1), put(w, 0, 1), put(w, 0, 6), put(w, 7, 4);
	sub(w, PH_CDAT_DSMAS, 24);
	put(w, 0, 1), put(w, 0, 1), put(w, 0, 2), put(w, 0, 8), put(w, 256u << 20, 8);
	for (size_t i = 0; i < sizeof(lb) / sizeof(lb[0]); i++) {
		sub(w, PH_CDAT_DSLBIS, 24);
		put(w, 0, 1), put(w, 0, 1), put(w, (uint64_t)lb[i].type, 1), put(w, 0, 1);
		put(w, lb[i].base, 8), put(w, (uint64_t)lb[i].entry, 2), put(w, 0, 2), put(w, 0, 2), put(w, 0, 2);
	}
	sub(w, PH_CDAT_DSEMTS, 24);
	put(w, 0, 1), put(w, 1, 1), put(w, 0, 2), put(w, 0, 8), put(w, 256u << 20, 8);
	sub(w, PH_CDAT_SSLBIS, 16 + 2 * 8);
	put(w, PH_HMAT_ACCESS_LATENCY, 1), put(w, 0, 3), put(w, 1000, 8);
	put(w, 0x100, 2), put(w, 0, 2), put(w, 20, 2), put(w, 0, 2);
	put(w, 0, 2), put(w, 0x100, 2), put(w, 30, 2), put(w, 0, 2);
	seal(w);
}

static void test_fields(void **state)
{
	struct bytes w;
	struct ph_cdat t;
	char why[256];

	(void)state;
	build(&w);
	/* 16 + 24 (DSMAS) + 4 x 24 (DSLBIS) + 24 (DSEMTS) + 32 (SSLBIS) = 192. */
	assert_int_equal(w.n, 192);
	assert_int_equal(cdat_parse(w.b, w.n, &t, why, sizeof(why)), 0);
	assert_int_equal(t.length, 192);
	assert_int_equal(t.revision, 1);
	assert_int_equal(t.sequence, 7);
	assert_int_equal(t.ndsmas, 1);
	assert_int_equal(t.dsmas[0].off, 16);
	assert_int_equal(t.dsmas[0].dpa_length, 256u << 20);
	assert_false(t.dsmas[0].nonvolatile);
	assert_int_equal(t.ndslbis, 4);
	assert_int_equal(t.dslbis[1].off, 16 + 24 + 24);
	assert_int_equal(t.dslbis[1].data_type, PH_HMAT_WRITE_LATENCY);
	assert_int_equal(t.dslbis[1].entry[0], 250);
	assert_int_equal(t.dslbis[2].base_unit, 1);
	assert_int_equal(t.ndsemts, 1);
	assert_int_equal(t.dsemts[0].efi_type, 1);
	assert_int_equal(t.dsemts[0].dpa_length, 256u << 20);
	assert_int_equal(t.nsslbis, 1);
	assert_int_equal(t.sslbis[0].n, 2);
	assert_int_equal(t.sslbis[0].e[0].port_x, 0x100);
	assert_int_equal(t.sslbis[0].e[1].port_y, 0x100);
	assert_int_equal(t.sslbis[0].e[1].value, 30);
	assert_int_equal(t.nunknown, 0);
	assert_ptr_equal(cdat_dsmas_of(&t, 0), &t.dsmas[0]);
	assert_null(cdat_dsmas_of(&t, 1));
	/* As the kernel makes figures: 150 x 1000 ps = 150 ns; 12000 x 1 MB/s. */
	assert_int_equal(acpi_hmat_value(t.dslbis[0].entry[0], t.dslbis[0].base_unit, t.dslbis[0].data_type, 2), 150);
	assert_int_equal(acpi_hmat_value(t.dslbis[2].entry[0], t.dslbis[2].base_unit, t.dslbis[2].data_type, 2), 12000);
	cdat_free(&t);
	assert_int_equal(t.ndslbis, 0);
}

static void expect_refused(const uint8_t *b, size_t n, const char *phrase)
{
	struct ph_cdat t;
	char why[256] = "";

	assert_int_equal(cdat_parse(b, n, &t, why, sizeof(why)), -EINVAL);
	if (!strstr(why, phrase))
		fail_msg("why '%s' lacks '%s'", why, phrase);
	assert_int_equal(t.ndsmas + t.ndslbis + t.nsslbis, 0);
}

static void test_refused(void **state)
{
	struct bytes w;

	(void)state;
	build(&w);
	/* Every truncation, into a copy of exactly that size (ASan sees a read past it). */
	for (size_t n = 0; n < w.n; n++) {
		uint8_t *c = malloc(n ? n : 1);

		memcpy(c, w.b, n);
		expect_refused(c, n, n < 16 ? "shorter than a CDAT's header" : "truncated");
		free(c);
	}
	/* A byte beyond the length the header gives. */
	w.b[w.n] = 0;
	expect_refused(w.b, w.n + 1, "not one table");
	/* Every single-bit flip changes the sum by 2^k, never 0 mod 256. */
	for (size_t i = 0; i < w.n; i++)
		for (int bit = 0; bit < 8; bit++) {
			struct bytes f = w;

			f.b[i] ^= (uint8_t)(1u << bit);
			/* A flip in the length field is read as a truncation or excess first. */
			expect_refused(f.b, f.n, i < 4 ? "header says" : "not 0 mod 256");
		}
	/* The checksum named: the table sums to 1 with checksum one too high. */
	build(&w);
	w.b[5]++;
	expect_refused(w.b, w.n, "sum to 1, not 0 mod 256: checksum 0x");
}

/* w with the structure at off given length len and type type, resealed. */
static void patch(struct bytes *w, size_t off, int type, int len)
{
	build(w);
	w->b[off] = (uint8_t)type;
	w->b[off + 2] = (uint8_t)len;
	w->b[off + 3] = (uint8_t)(len >> 8);
	seal(w);
}

static void test_structures(void **state)
{
	struct bytes w;
	struct ph_cdat t;
	char why[256];

	(void)state;
	/* A DSMAS of 28 bytes: not its type's 24. */
	patch(&w, 16, PH_CDAT_DSMAS, 28);
	expect_refused(w.b, w.n, "DSMAS at offset 16: length 28; a DSMAS is 24 bytes");
	/* A structure shorter than its own header, and one running past the table. */
	patch(&w, 16, PH_CDAT_DSMAS, 3);
	expect_refused(w.b, w.n, "length 3; 176 bytes are left");
	patch(&w, 160, PH_CDAT_SSLBIS, 40);
	expect_refused(w.b, w.n, "at offset 160: length 40; 32 bytes are left");
	/* An SSLBIS whose entries are not 8 bytes each: 16 + 12. */
	patch(&w, 160, PH_CDAT_SSLBIS, 28);
	expect_refused(w.b, w.n, "SSLBIS at offset 160: length 28");
	/* A DSLBIS data type beyond HMAT's six (byte 6 of the structure at 40). */
	build(&w);
	w.b[40 + 6] = 6;
	seal(&w);
	expect_refused(w.b, w.n, "DSLBIS at offset 40: data type 6");
	/* A later type (here 9, in the DSEMTS's place): skipped and counted. */
	patch(&w, 136, 9, 24);
	assert_int_equal(cdat_parse(w.b, w.n, &t, why, sizeof(why)), 0);
	assert_int_equal(t.nunknown, 1);
	assert_int_equal(t.ndsemts, 0);
	assert_int_equal(t.nsslbis, 1);
	cdat_free(&t);
	/* Only a header: a table of no structures. */
	memset(&w, 0, sizeof(w));
	w.n = 16;
	seal(&w);
	assert_int_equal(cdat_parse(w.b, w.n, &t, why, sizeof(why)), 0);
	assert_int_equal(t.ndsmas + t.ndslbis + t.nunknown, 0);
	cdat_free(&t);
}

/* Flips with the sum mended reach the structures: parsed or refused with a reason. */
static void test_mended_flips(void **state)
{
	struct bytes w;
	int parsed = 0, refused = 0;

	(void)state;
	build(&w);
	for (size_t i = 6; i < w.n; i++)
		for (int bit = 0; bit < 8; bit++) {
			struct bytes f = w;
			struct ph_cdat t;
			char why[256] = "";
			uint8_t *c = malloc(f.n);

			f.b[i] ^= (uint8_t)(1u << bit);
			seal(&f);
			memcpy(c, f.b, f.n);
			if (cdat_parse(c, f.n, &t, why, sizeof(why))) {
				assert_true(why[0] != '\0');
				refused++;
			} else {
				parsed++;
				cdat_free(&t);
			}
			free(c);
		}
	/* A flip in a value field parses; one in a type or length mostly does not. */
	assert_true(parsed > 0);
	assert_true(refused > 0);
	assert_int_equal(parsed + refused, (int)(w.n - 6) * 8);
}

static void test_read(void **state)
{
	struct bytes w;
	struct ph_cdat t;
	char path[] = "/tmp/test_cdat.XXXXXX", why[256];
	int fd;

	(void)state;
	build(&w);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, w.b, w.n), (ssize_t)w.n);
	close(fd);
	assert_int_equal(cdat_read(path, &t, why, sizeof(why)), 0);
	assert_int_equal(t.ndslbis, 4);
	cdat_free(&t);
	unlink(path);
	assert_int_equal(cdat_read(path, &t, why, sizeof(why)), -ENOENT);
	assert_true(cdat_read("/dev/null", &t, why, sizeof(why)) < 0);
	assert_non_null(strstr(why, "expected a regular file"));
}

/* Built from what was parsed, the table is the one written here, byte for byte. */
static void test_build(void **state)
{
	struct bytes w;
	struct ph_cdat t, u;
	char why[256];
	uint8_t *b;
	size_t n;

	(void)state;
	build(&w);
	assert_int_equal(cdat_parse(w.b, w.n, &t, why, sizeof(why)), 0);
	b = cdat_build(&t, &n);
	assert_int_equal(n, w.n);
	assert_memory_equal(b, w.b, n);
	free(b);
	/* A changed figure: the new table parses, with that entry and a new sum. */
	t.dslbis[0].entry[0] = 750;
	b = cdat_build(&t, &n);
	assert_int_equal(cdat_parse(b, n, &u, why, sizeof(why)), 0);
	assert_int_equal(u.dslbis[0].entry[0], 750);
	assert_int_equal(u.ndslbis, 4);
	/* 750 - 150 = 600 = 0x258: the low byte grows by 0x58 and the next by 2, the sum by 0x5a. */
	assert_int_equal((uint8_t)(w.b[5] - u.checksum), 0x5a);
	free(b);
	cdat_free(&u);
	cdat_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_structures),
		cmocka_unit_test(test_mended_flips),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_build),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
