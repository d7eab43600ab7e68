// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli.c - option parsing shared by the subcommands.
 */
#include "cli.h"
#include "acpi_slit.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <numa.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * libnuma reports parse errors through numa_warn(), a weak symbol that an
 * application may replace.  While a list is being parsed we keep the message
 * to put into our own one-line error; at any other time libnuma's warnings
 * are passed on as ours.
 */
static bool capturing;
static char numa_msg[256];

/* libnuma's prototypes for these are not const-correct; match them. */
void numa_warn(int num, char *fmt, ...);
void numa_error(char *where);

void numa_warn(int num, char *fmt, ...)
{
	va_list ap;
	char msg[256];

	(void)num;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	msg[strcspn(msg, "\n")] = '\0';
	/* "missing node argument %s" with an empty argument ends in a space. */
	for (size_t n = strlen(msg); n && msg[n - 1] == ' '; n--)
		msg[n - 1] = '\0';
	if (capturing)
		snprintf(numa_msg, sizeof(numa_msg), "%s", msg);
	else
		ph_warn("libnuma: %s", msg);
}

void numa_error(char *where)
{
	int err = errno;

	if (capturing)
		snprintf(numa_msg, sizeof(numa_msg), "%s: %s", where, strerror(err));
	else
		ph_warn("libnuma: %s: %s", where, strerror(err));
}

const char *cli_last_numa_message(void)
{
	return numa_msg;
}

int cli_parse_format(const char *opt, const char *arg, enum ph_format *out)
{
	/* --verbose given before --format table keeps the verbose table. */
	if (!strcmp(arg, "table"))
		*out = *out == PH_FMT_TABLE_VERBOSE ? PH_FMT_TABLE_VERBOSE : PH_FMT_TABLE;
	else if (!strcmp(arg, "csv"))
		*out = PH_FMT_CSV;
	else if (!strcmp(arg, "json"))
		*out = PH_FMT_JSON;
	else {
		ph_err("%s: unknown format '%s'; expected table, csv or json", opt, arg);
		return -EINVAL;
	}
	return 0;
}

/*
 * The highest id of the machine's possible nodes or CPUs: the last number of
 * /sys/devices/system/node/possible or .../cpu/possible ("0-3"), else what
 * libnuma says.
 */
static unsigned long possible_max(bool cpus)
{
	char buf[256];
	int n = read_text(cpus ? "/sys/devices/system/cpu/possible" : "/sys/devices/system/node/possible",
			  buf, sizeof(buf));
	const char *p = buf + (n > 0 ? n : 0);

	while (p > buf && isdigit((unsigned char)p[-1]))
		p--;
	if (n > 0 && isdigit((unsigned char)*p))
		return strtoul(p, NULL, 10);
	return cpus ? (unsigned long)numa_num_possible_cpus() - 1 : (unsigned long)numa_max_possible_node();
}

/*
 * The list in numactl's syntax, [!][+](all | ID[-ID][,ID[-ID]]...), checked
 * before libnuma sees it: libnuma reads each ID with strtoul (base 0: "010"
 * is 8, "0x1" is 1) and keeps it in an int, so that 4294967296 would be
 * node 0.  Here an ID is plain decimal digits and at most the machine's
 * highest possible id (what follows '+' is an index into the allowed ids,
 * held to the same bound).  numactl's other forms (a device name such as
 * netdev:eth0) are refused.  0, or -EINVAL said in one line.
 */
static int check_ids(const char *opt, const char *arg, bool cpus)
{
	const char *what = cpus ? "CPU" : "node", *s = arg;
	unsigned long max = possible_max(cpus);
	char why[160];

	if (!*s)
		return 0;	/* selects nothing: said after libnuma */
	s += *s == '!';
	s += *s == '+';
	if (!strcmp(s, "all"))
		return 0;
	for (;;) {
		for (int end = 0; end < 2; end++) {
			const char *d = s;
			unsigned long long v;
			char *e;

			while (isdigit((unsigned char)*s))
				s++;
			if (s == d) {
				if (end)
					snprintf(why, sizeof(why), "missing %s argument after '-'", what);
				else
					snprintf(why, sizeof(why), "unparseable at '%.64s'", d);
				goto bad;
			}
			if ((s - d > 1 && *d == '0') || *s == 'x' || *s == 'X') {
				snprintf(why, sizeof(why), "'%.*s' is not a decimal id (libnuma would read it as octal or hex)",
					 (int)strcspn(d, ",-"), d);
				goto bad;
			}
			errno = 0;
			v = strtoull(d, &e, 10);
			if (errno || v > max) {
				char ids[32] = "0";

				if (max)
					snprintf(ids, sizeof(ids), "0-%lu", max);
				snprintf(why, sizeof(why), "%s %.*s is out of range: this machine's possible %ss are %s",
					 what, (int)(s - d), d, what, ids);
				goto bad;
			}
			if (end || *s != '-')
				break;
			s++;
		}
		if (!*s)
			return 0;
		if (*s != ',' || !s[1]) {
			snprintf(why, sizeof(why), "unparseable at '%.64s'", s);
			goto bad;
		}
		s++;
	}
bad:
	ph_err("%s: invalid %s list '%s': %s; expected a list as numactl takes it, e.g. 0,2-3 or all",
	       opt, what, arg, why);
	return -EINVAL;
}

static int parse_list(const char *opt, const char *arg, struct bitmask **out,
		      bool cpus)
{
	const char *what = cpus ? "CPU" : "node";
	struct bitmask *bm;

	if (numa_available() < 0) {
		ph_err("%s: NUMA is not available on this kernel", opt);
		return -EINVAL;
	}
	/* libnuma skips a leading space (strtoul) but not a trailing one. */
	if (arg[strcspn(arg, " \t\n\v\f\r")]) {
		ph_err("%s: invalid %s list '%s': contains white space; expected a list as numactl takes it, e.g. 0,2-3 or all",
		       opt, what, arg);
		return -EINVAL;
	}
	if (check_ids(opt, arg, cpus))
		return -EINVAL;
	numa_msg[0] = '\0';
	capturing = true;
	/* libnuma takes a non-const string but does not write to it. */
	bm = cpus ? numa_parse_cpustring((char *)arg)
		  : numa_parse_nodestring((char *)arg);
	capturing = false;
	if (!bm) {
		const char *why = numa_msg[0] ? numa_msg : "not a list";

		ph_err("%s: invalid %s list '%s': %s; expected a list as numactl takes it, e.g. 0,2-3 or all",
		       opt, what, arg, why);
		return -EINVAL;
	}
	if (numa_bitmask_weight(bm) == 0) {
		numa_bitmask_free(bm);
		ph_err("%s: %s list '%s' selects no %s; expected at least one, e.g. 0 or all",
		       opt, what, arg, what);
		return -EINVAL;
	}
	*out = bm;
	return 0;
}

int cli_parse_nodes(const char *opt, const char *arg, struct bitmask **out)
{
	return parse_list(opt, arg, out, false);
}

int cli_parse_cpus(const char *opt, const char *arg, struct bitmask **out)
{
	return parse_list(opt, arg, out, true);
}

int cli_parse_size(const char *opt, const char *arg, uint64_t *out)
{
	int err = parse_size(arg, out, false);
	uint64_t zero;

	/* -ERANGE is zero or too large: zero parses when zero is allowed. */
	if (err == -ERANGE && parse_size(arg, &zero, true)) {
		ph_err("%s: size '%s' is too large; expected at most 1024T", opt, arg);
		return -EINVAL;
	}
	if (err) {
		ph_err("%s: invalid size '%s'; expected a positive number with an optional K, M, G or T suffix, e.g. 64M",
		       opt, arg);
		return -EINVAL;
	}
	return 0;
}

int cli_parse_uint(const char *opt, const char *arg, unsigned min,
		   unsigned max, unsigned *out)
{
	uint64_t v;

	if (parse_u64(arg, false, &v) || v < min || v > max) {
		ph_err("%s: invalid number '%s'; expected an integer from %u to %u",
		       opt, arg, min, max);
		return -EINVAL;
	}
	*out = (unsigned)v;
	return 0;
}

int cli_parse_u32(const char *opt, const char *arg, uint32_t *out)
{
	uint64_t v;

	if (parse_u64(arg, true, &v) || v > UINT32_MAX) {
		ph_err("%s: invalid number '%s'; expected 0 to 4294967295 (or 0x hex)", opt, arg);
		return -EINVAL;
	}
	*out = (uint32_t)v;
	return 0;
}

int cli_parse_acpi_id(const char *opt, const char *arg, size_t max, const char **out)
{
	if (!acpi_id_valid(arg, max)) {
		ph_err("%s: '%s'; expected 1 to %zu printable ASCII characters, no '\"'", opt, arg, max);
		return -EINVAL;
	}
	*out = arg;
	return 0;
}

int cli_parse_double(const char *opt, const char *arg, double min,
		     double max, double *out)
{
	char *end;
	double v;

	/*
	 * strtod also takes white space, a sign, "inf", "nan" and hex
	 * floats: a plain decimal number must start with a digit or a point.
	 */
	errno = 0;
	v = strtod(arg, &end);
	if (!((*arg >= '0' && *arg <= '9') || *arg == '.') || strpbrk(arg, "xX") ||
	    *end || errno || !isfinite(v) || v < min || v > max) {
		ph_err("%s: invalid number '%s'; expected a number from %g to %g",
		       opt, arg, min, max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int cli_parse_u64(const char *opt, const char *arg, uint64_t *out)
{
	uint64_t v;

	if (parse_u64(arg, true, &v)) {
		ph_err("%s: invalid number '%s'; expected an integer from 0 to 18446744073709551615 (or 0x hex)",
		       opt, arg);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int cli_check_list(const char *opt, const char *arg, const char *expected)
{
	size_t n = strlen(arg);

	if (!n) {
		ph_err("%s: an empty list; expected %s", opt, expected);
		return -EINVAL;
	}
	if (arg[0] == ',' || arg[n - 1] == ',' || strstr(arg, ",,")) {
		ph_err("%s: '%s' has an empty element; expected %s", opt, arg, expected);
		return -EINVAL;
	}
	return 0;
}

int cli_parse_ascending(const char *opt, const char *arg, unsigned min, unsigned max,
			const char *expected, int **out, int *n)
{
	char *copy, *save = NULL;
	long prev = -1;

	free(*out);
	*out = NULL;
	*n = 0;
	if (cli_check_list(opt, arg, expected))
		return -EINVAL;
	copy = xstrdup(arg);
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-');
		unsigned lo, hi;

		if (dash)
			*dash = '\0';
		if (cli_parse_uint(opt, tok, min, max, &lo) ||
		    cli_parse_uint(opt, dash ? dash + 1 : tok, min, max, &hi))
			goto bad;
		if ((long)lo <= prev || hi < lo) {
			ph_err("%s: '%s': the numbers must be ascending, each once", opt, arg);
			goto bad;
		}
		for (unsigned v = lo; v <= hi; v++)
			*(int *)xappend(out, n, sizeof(int)) = (int)v;
		prev = (long)hi;
	}
	free(copy);
	return 0;
bad:
	free(copy);
	free(*out);
	*out = NULL;
	*n = 0;
	return -EINVAL;
}

int cli_no_arguments(int argc, char *const argv[])
{
	if (optind < argc) {
		ph_err("unexpected argument '%s'; see '%s --help'", argv[optind], ph_progname());
		return -EINVAL;
	}
	return 0;
}

void cli_option_error(int c, char *const argv[], const struct option *longopts)
{
	const char *bad = argv[optind - 1];
	char name[64];

	if (c == ':') {
		/* optopt is the short option, or the long option's val. */
		for (const struct option *o = longopts; o && o->name; o++) {
			if (!o->flag && o->val == optopt) {
				snprintf(name, sizeof(name), "--%s", o->name);
				ph_err("option '%s' needs a value; see '%s --help'",
				       name, ph_progname());
				return;
			}
		}
		ph_err("option '%s' needs a value; see '%s --help'", bad, ph_progname());
		return;
	}
	if (optopt && optopt < 256 && !(bad[0] == '-' && bad[1] == '-'))
		ph_err("unknown option '-%c'; see '%s --help'", optopt, ph_progname());
	else
		ph_err("unknown option '%s'; see '%s --help'", bad, ph_progname());
}

int cli_check_output(const char *opt, const char *path)
{
	char why[256];

	/* Before measuring: a bad path found after an hour is an hour lost. */
	if (output_path_check(path, why, sizeof(why))) {
		ph_err("%s %s: %s", opt, path, why);
		return -EINVAL;
	}
	return 0;
}
