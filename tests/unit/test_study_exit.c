// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_study_exit.c - the exit-code policy every study shares (study.h),
 * one case per outcome, each against the code pagehop(1) documents for it
 * (util.h's values written out here, not taken from the code under test's
 * arithmetic), and whether a document is rendered for it; then the same
 * outcomes for a monitoring plugin (PH_STUDY_PLUGIN: 0 OK, 1 WARNING,
 * 2 CRITICAL, 3 UNKNOWN, as the Nagios plugin guidelines number them).
 */
#include "unit.h"
#include "optspec.h"
#include "study.h"
#include "util.h"

#include <errno.h>

/* --help: its usage is the output, and it is a success. */
static void test_help(void **state)
{
	(void)state;
	assert_int_equal(study_exit(0, PH_OPTS_HELP, 0, false, false), 0);
	/* A signal after the usage was printed changes nothing. */
	assert_int_equal(study_exit(0, PH_OPTS_HELP, 0, false, true), 0);
	assert_false(study_renders(0, PH_OPTS_HELP, 0, false));
}

/* A bad option: 2, nothing rendered, whatever else. */
static void test_usage(void **state)
{
	(void)state;
	assert_int_equal(study_exit(0, -EINVAL, 0, false, false), 2);
	assert_int_equal(study_exit(0, -EINVAL, 0, false, true), 2);
	assert_false(study_renders(0, -EINVAL, 0, true));
}

/* A usage error found late (a check, or a kernel the size cannot hold). */
static void test_late_usage(void **state)
{
	(void)state;
	assert_int_equal(study_exit(0, 0, PH_EXIT_USAGE, false, false), 2);
	assert_int_equal(study_exit(0, 0, PH_EXIT_USAGE, true, false), 2);
	/* Bad usage stays bad usage after a signal. */
	assert_int_equal(study_exit(0, 0, PH_EXIT_USAGE, false, true), 2);
	assert_false(study_renders(0, 0, PH_EXIT_USAGE, true));
}

/* Nothing measured and no reason given: a failure, never a success. */
static void test_nothing_measured(void **state)
{
	(void)state;
	assert_int_equal(study_exit(0, 0, 0, false, false), 1);
	assert_int_equal(study_exit(0, 0, PH_EXIT_FAIL, false, false), 1);
	assert_false(study_renders(0, 0, 0, false));
}

/* Interrupted before anything was measured: 130. */
static void test_interrupted_before(void **state)
{
	(void)state;
	assert_int_equal(study_exit(0, 0, 0, false, true), 130);
	assert_int_equal(study_exit(0, 0, PH_EXIT_FAIL, false, true), 130);
	assert_int_equal(study_exit(0, 0, PH_EXIT_INTERRUPTED, false, true), 130);
	assert_false(study_renders(0, 0, PH_EXIT_INTERRUPTED, false));
}

/* Interrupted after some figures: they are rendered, and the code is 130. */
static void test_interrupted_after(void **state)
{
	(void)state;
	assert_int_equal(study_exit(0, 0, 0, true, true), 130);
	assert_int_equal(study_exit(0, 0, PH_EXIT_FAIL, true, true), 130);
	assert_int_equal(study_exit(0, 0, PH_EXIT_UNSUPPORTED, true, true), 130);
	assert_true(study_renders(0, 0, 0, true));
}

/* The machine cannot do it: 4, also when a signal came after. */
static void test_unsupported(void **state)
{
	(void)state;
	assert_int_equal(study_exit(0, 0, PH_EXIT_UNSUPPORTED, false, false), 4);
	assert_int_equal(study_exit(0, 0, PH_EXIT_UNSUPPORTED, false, true), 4);
	assert_int_equal(study_exit(0, 0, PH_EXIT_UNSUPPORTED, true, false), 4);
	assert_true(study_renders(0, 0, PH_EXIT_UNSUPPORTED, true));
}

/* Measured: the study's own code passes through (0, a failed figure, 3, 5). */
static void test_study_codes(void **state)
{
	(void)state;
	assert_int_equal(study_exit(0, 0, 0, true, false), 0);
	assert_int_equal(study_exit(0, 0, PH_EXIT_FAIL, true, false), 1);
	assert_int_equal(study_exit(0, 0, PH_EXIT_MAGNITUDE, true, false), 3);
	assert_int_equal(study_exit(0, 0, PH_EXIT_CANNOT_TELL, true, false), 5);
	assert_true(study_renders(0, 0, PH_EXIT_CANNOT_TELL, true));
	/* Nothing measured, the study's reason: that reason. */
	assert_int_equal(study_exit(0, 0, PH_EXIT_CANNOT_TELL, false, false), 5);
}

#define PLUGIN PH_STUDY_PLUGIN

/* A plugin's --help is its usage, and a success, as for every study. */
static void test_plugin_help(void **state)
{
	(void)state;
	assert_int_equal(study_exit(PLUGIN, PH_OPTS_HELP, 0, false, false), 0);
	assert_int_equal(study_exit(PLUGIN, PH_OPTS_HELP, 0, false, true), 0);
	assert_false(study_renders(PLUGIN, PH_OPTS_HELP, 0, false));
}

/* Bad usage: UNKNOWN (3), not 2 (CRITICAL); no document (its line instead). */
static void test_plugin_usage(void **state)
{
	(void)state;
	assert_int_equal(study_exit(PLUGIN, -EINVAL, 0, false, false), 3);
	assert_int_equal(study_exit(PLUGIN, -EINVAL, 0, false, true), 3);
	assert_false(study_renders(PLUGIN, -EINVAL, 0, false));
	/* Found late (an output path's directory missing): UNKNOWN too. */
	assert_int_equal(study_exit(PLUGIN, 0, PH_EXIT_USAGE, false, false), 3);
	assert_false(study_renders(PLUGIN, 0, PH_EXIT_USAGE, false));
}

/* Nothing measured (an unreadable baseline): UNKNOWN, never OK. */
static void test_plugin_nothing_measured(void **state)
{
	(void)state;
	assert_int_equal(study_exit(PLUGIN, 0, 0, false, false), 3);
	assert_int_equal(study_exit(PLUGIN, 0, 3, false, false), 3);
	assert_int_equal(study_exit(PLUGIN, 0, PH_EXIT_FAIL, false, false), 3);
	assert_int_equal(study_exit(PLUGIN, 0, PH_EXIT_UNSUPPORTED, false, false), 3);
	assert_true(study_renders(PLUGIN, 0, 3, false));
	assert_true(study_renders(PLUGIN, 0, PH_EXIT_FAIL, false));
}

/* A signal: UNKNOWN, before or after something was measured, never 130. */
static void test_plugin_interrupted(void **state)
{
	(void)state;
	assert_int_equal(study_exit(PLUGIN, 0, 0, false, true), 3);
	assert_int_equal(study_exit(PLUGIN, 0, 0, true, true), 3);
	assert_int_equal(study_exit(PLUGIN, 0, 2, true, true), 3);
	assert_int_equal(study_exit(PLUGIN, 0, PH_EXIT_INTERRUPTED, true, true), 3);
	assert_true(study_renders(PLUGIN, 0, PH_EXIT_INTERRUPTED, true));
}

/* Measured: the verdict is the code, CRITICAL (2) included. */
static void test_plugin_verdict(void **state)
{
	(void)state;
	assert_int_equal(study_exit(PLUGIN, 0, 0, true, false), 0);
	assert_int_equal(study_exit(PLUGIN, 0, 1, true, false), 1);
	assert_int_equal(study_exit(PLUGIN, 0, 2, true, false), 2);
	assert_int_equal(study_exit(PLUGIN, 0, 3, true, false), 3);
	assert_true(study_renders(PLUGIN, 0, 2, true));
	/* Other flags leave the plugin's policy as it is. */
	assert_int_equal(study_exit(PLUGIN | PH_STUDY_OWN_NOTES, 0, 2, true, false), 2);
	assert_int_equal(study_exit(PH_STUDY_OWN_NOTES, 0, 2, true, false), 2);
	assert_int_equal(study_exit(PH_STUDY_OWN_NOTES, -EINVAL, 0, false, false), 2);
}

/*
 * slit's verdict is the document step's code, whatever read the machine
 * (--input reads none): 0 consistent or nothing to compare on one node,
 * 1 inconsistent, 3 outside the tolerance, 5 cannot tell; each rendered.
 */
static void test_verdict_codes(void **state)
{
	(void)state;
	assert_int_equal(study_exit(0, 0, 0, true, false), 0);
	assert_int_equal(study_exit(0, 0, 1, true, false), 1);
	assert_int_equal(study_exit(0, 0, 3, true, false), 3);
	assert_int_equal(study_exit(0, 0, 5, true, false), 5);
	assert_true(study_renders(0, 0, 0, true));
	assert_true(study_renders(0, 0, 1, true));
	assert_true(study_renders(0, 0, 3, true));
	assert_true(study_renders(0, 0, 5, true));
}

/*
 * The document step gave no document (an output of its own could not be
 * written): its code, nothing rendered; no code is a failure, not a success.
 */
static void test_no_document(void **state)
{
	(void)state;
	assert_int_equal(study_exit(0, 0, 2, false, false), 2);
	assert_int_equal(study_exit(0, 0, 1, false, false), 1);
	assert_int_equal(study_exit(0, 0, 0, false, false), 1);
	assert_false(study_renders(0, 0, 2, false));
	assert_false(study_renders(0, 0, 1, false));
	assert_false(study_renders(0, 0, 0, false));
	/* A signal while it was written: 130. */
	assert_int_equal(study_exit(0, 0, 1, false, true), 130);
}

/* An output asked for on one node cannot be had: 4, nothing rendered. */
static void test_one_node_outputs(void **state)
{
	(void)state;
	assert_int_equal(study_exit(0, 0, 4, false, false), 4);
	assert_false(study_renders(0, 0, 4, false));
}

/*
 * An output that failed (stdout, --save, a plot): a verdict that did not
 * reach its reader is 1, a plugin's is UNKNOWN; usage, "not here" and a
 * signal keep their codes.
 */
static void test_output_failed(void **state)
{
	(void)state;
	assert_int_equal(study_output_failed(0, 0), 1);
	assert_int_equal(study_output_failed(0, 1), 1);
	assert_int_equal(study_output_failed(0, 3), 1);	/* slit: magnitudes */
	assert_int_equal(study_output_failed(0, 5), 1);	/* cannot tell */
	assert_int_equal(study_output_failed(0, 2), 2);
	assert_int_equal(study_output_failed(0, 4), 4);
	assert_int_equal(study_output_failed(0, 130), 130);
	for (int v = 0; v <= 3; v++)
		assert_int_equal(study_output_failed(PH_STUDY_PLUGIN, v), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_late_usage),
		cmocka_unit_test(test_nothing_measured),
		cmocka_unit_test(test_interrupted_before),
		cmocka_unit_test(test_interrupted_after),
		cmocka_unit_test(test_unsupported),
		cmocka_unit_test(test_study_codes),
		cmocka_unit_test(test_plugin_help),
		cmocka_unit_test(test_plugin_usage),
		cmocka_unit_test(test_plugin_nothing_measured),
		cmocka_unit_test(test_plugin_interrupted),
		cmocka_unit_test(test_plugin_verdict),
		cmocka_unit_test(test_verdict_codes),
		cmocka_unit_test(test_no_document),
		cmocka_unit_test(test_one_node_outputs),
		cmocka_unit_test(test_output_failed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
