/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * readers.h - what the tests of the readers share: an error must be one
 * line holding what the test expects, and leave nothing behind; and the
 * JSON fragments several of them build on.
 */
#ifndef PAGEHOP_TEST_READERS_H
#define PAGEHOP_TEST_READERS_H

#include "read_csv.h"
#include "read_json.h"
#include "read_numactl.h"

#include <errno.h>
#include <string.h>

#define assert_contains(hay, needle)                                             \
	do {                                                                     \
		if (!strstr((hay), (needle)))                                    \
			fail_msg("'%s' does not contain '%s'", (hay), (needle)); \
	} while (0)

static inline void expect_csv_error(const char *text, enum ph_figure fig, const char *want)
{
	struct ph_input in;
	char err[512] = "";

	assert_int_equal(input_parse_csv("x.csv", text, fig, &in, err, sizeof(err)), -EINVAL);
	assert_contains(err, want);
	assert_null(strchr(err, '\n'));		/* one line */
	assert_null(in.m);
}

static inline void expect_json_error(const char *text, enum ph_figure fig, const char *want)
{
	struct ph_input in;
	char err[512] = "";

	assert_int_equal(input_parse_json("x.json", text, fig, &in, err, sizeof(err)), -EINVAL);
	assert_contains(err, want);
	assert_null(strchr(err, '\n'));
	assert_null(in.m);
}

static inline void expect_numactl_error(const char *text, const char *want)
{
	struct ph_slit *s = (struct ph_slit *)1;
	char err[512] = "";

	assert_int_equal(slit_parse_numactl("n.txt", text, &s, err, sizeof(err)), -EINVAL);
	assert_contains(err, want);
	assert_null(strchr(err, '\n'));
	assert_null(s);
}

/* The start of a 2 x 2 latency matrix in pagehop's JSON, up to its values. */
#define LAT_HEAD "{\"latency_ns\": {\"metric\": \"latency_ns\", \"rows\": [0, 1], \"columns\": [0, 1], "

/* A latency matrix and an HMAT of the given entries, as JSON. */
#define HMAT(entry) LAT_HEAD "\"values\": [[1, 2], [3, 4]]}, \"hmat\": [" entry "]}"

#endif
