// SPDX-License-Identifier: GPL-2.0-only
/*
 * number.c - format_number() (number.h): the text snprintf would give one
 * double, without its cost, for the formats documents use.
 */
#include "number.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---- numbers ---- */

static const unsigned long long pow10_u64[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
	100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL,
	1000000000000ULL, 10000000000000ULL, 100000000000000ULL,
	1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
	1000000000000000000ULL, 10000000000000000000ULL,
};

/* 10^-4 .. 10^19: pow10_d[i] is 10^(i - 4), the nearest double. */
static const double pow10_d[24] = {
	1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
};

/*
 * |v| * 10^k rounded to an integer as printf rounds: v is m * 2^e exactly
 * (m below 2^53), so m * 10^k is exact in 128 bits, and the shift by e
 * rounds half to even on the exact value, as glibc does in the default
 * rounding mode.  false when the result would not fit 64 bits.
 */
static bool scaled_round(double v, int k, unsigned long long *out)
{
#ifndef __SIZEOF_INT128__
	(void)v;
	(void)k;
	(void)out;
	return false;	/* no 128-bit integers: printf does it */
#else
	int e2;
	double f = frexp(fabs(v), &e2);
	unsigned __int128 t = (unsigned long long)ldexp(f, 53), q, rem, half;
	int e = e2 - 53, s;

	t *= pow10_u64[k];	/* k <= 19: below 2^117 */
	if (e >= 0) {
		if (e > 10)
			return false;
		t <<= e;
		if (t > (unsigned __int128)UINT64_MAX)
			return false;
		*out = (unsigned long long)t;
		return true;
	}
	s = -e;
	if (s >= 119) {
		*out = 0;	/* t < 2^117 <= half */
		return true;
	}
	q = t >> s;
	rem = t - (q << s);
	half = (unsigned __int128)1 << (s - 1);
	if (rem > half || (rem == half && (q & 1)))
		q++;
	if (q > (unsigned __int128)UINT64_MAX)
		return false;
	*out = (unsigned long long)q;
	return true;
#endif
}

/* The digits of u, at least width of them (zero-padded); returns the count. */
static int put_digits(char *p, unsigned long long u, int width)
{
	char tmp[24];
	int n = 0, len = 0;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	for (; width > n; width--)
		p[len++] = '0';
	while (n)
		p[len++] = tmp[--n];
	return len;
}

int format_int(char *buf, long long v)
{
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	int len = 0;

	if (v < 0)
		buf[len++] = '-';
	len += put_digits(buf + len, u, 1);
	buf[len] = '\0';
	return len;
}

/* "%.Nf" or "%+.Nf" of a finite v; -1 where it cannot be done exactly here. */
static int fixed(char *p, double v, int prec, bool plus)
{
	unsigned long long r;
	int len = 0;

	if (prec > 19 || !scaled_round(v, prec, &r))
		return -1;
	if (signbit(v))
		p[len++] = '-';
	else if (plus)
		p[len++] = '+';
	len += put_digits(p + len, r / pow10_u64[prec], 1);
	if (prec) {
		p[len++] = '.';
		len += put_digits(p + len, r % pow10_u64[prec], prec);
	}
	p[len] = '\0';
	return len;
}

/*
 * "%.Pg" of a finite v in the fixed style (decimal exponent X from -4 to
 * P - 1): P significant digits, trailing zeros dropped; -1 for the
 * exponent style or where it cannot be done exactly here.
 */
static int general(char *p, double v, int prec)
{
	unsigned long long r = 0;
	int x, k, len = 0, tries;

	if (prec == 0)
		prec = 1;
	if (prec > 17 || v == 0)
		return -1;
	/* The decimal exponent, give or take one (the loop settles it): no log10(). */
	x = -5;
	while (x < 19 && fabs(v) >= pow10_d[x + 5])
		x++;
	for (tries = 0; tries < 4; tries++) {
		k = prec - 1 - x;
		if (k < 0 || k > 19 || !scaled_round(v, k, &r))
			return -1;
		if (r < pow10_u64[prec - 1]) {
			x--;		/* log10 said too much */
		} else if (r > pow10_u64[prec]) {
			x++;		/* or too little */
		} else {
			if (r == pow10_u64[prec]) {
				/* Rounded up to the next power of ten. */
				x++;
				r /= 10;
			}
			break;
		}
	}
	if (tries == 4 || x < -4 || x >= prec)
		return -1;
	k = prec - 1 - x;
	if (signbit(v))
		p[len++] = '-';
	len += put_digits(p + len, r / pow10_u64[k], 1);
	if (k) {
		unsigned long long frac = r % pow10_u64[k];

		while (k && frac % 10 == 0) {
			frac /= 10;
			k--;
		}
		if (k) {
			p[len++] = '.';
			len += put_digits(p + len, frac, k);
		}
	}
	p[len] = '\0';
	return len;
}

/*
 * Generated rows format millions of numbers; glibc's printf takes some
 * 300 ns for one.  The formats documents use ("%.2f", "%+.1f", "%g",
 * "%.4g") are done here exactly as printf does them, the rest by printf.
 */
int format_number(char *buf, size_t size, const char *fmt, double v)
{
	char tmp[48];
	const char *f = fmt;
	bool plus = false;
	int prec = -1, len = -1;

	if (*f++ != '%' || !isfinite(v))
		goto slow;
	if (*f == '+') {
		plus = true;
		f++;
	}
	if (*f == '.') {
		f++;
		if (*f < '0' || *f > '9')
			goto slow;
		prec = 0;
		while (*f >= '0' && *f <= '9' && prec < 100)
			prec = prec * 10 + (*f++ - '0');
	}
	if (f[0] == 'f' && !f[1] && prec >= 0)
		len = fixed(tmp, v, prec, plus);
	else if (f[0] == 'g' && !f[1] && !plus)
		len = general(tmp, v, prec < 0 ? 6 : prec);
	if (len < 0)
		goto slow;
	if ((size_t)len < size) {
		memcpy(buf, tmp, (size_t)len + 1);
	} else if (size) {
		memcpy(buf, tmp, size - 1);	/* truncated, as snprintf */
		buf[size - 1] = '\0';
	}
	return len;
slow:
	return snprintf(buf, size, fmt, v);
}
