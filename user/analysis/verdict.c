// SPDX-License-Identifier: GPL-2.0-only
/*
 * verdict.c - a verdict of "pagehop slit" as a word and as an exit status.
 */
#include "verdict.h"
#include "util.h"

int verdict_exit(enum ph_verdict v)
{
	switch (v) {
	case PH_VERDICT_INCONSISTENT:
		return PH_EXIT_FAIL;
	case PH_VERDICT_MAGNITUDE:
		return PH_EXIT_MAGNITUDE;
	case PH_VERDICT_CANNOT_TELL:
		return PH_EXIT_CANNOT_TELL;
	case PH_VERDICT_CONSISTENT:
	case PH_VERDICT_UNCOMPARED:
		break;
	}
	return PH_EXIT_OK;
}

const char *verdict_status(enum ph_verdict v)
{
	switch (v) {
	case PH_VERDICT_CONSISTENT:
		return "consistent";
	case PH_VERDICT_INCONSISTENT:
		return "inconsistent";
	case PH_VERDICT_MAGNITUDE:
		return "outside tolerance";
	case PH_VERDICT_CANNOT_TELL:
		return "cannot tell";
	case PH_VERDICT_UNCOMPARED:
		break;
	}
	return "not compared";
}
