// SPDX-License-Identifier: GPL-2.0-only
/*
 * progress.c - the one progress line on stderr (progress.h).  Everything
 * it prints is ASCII, so that a byte is a column and the line can be cut
 * to the terminal's width: a line that wrapped could no longer be
 * rewritten with \r.
 */
#include "progress.h"
#include "util.h"

#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static struct {
	enum ph_progress_out how;
	FILE *out;
	double (*now)(void);
	int width;
	char what[32];
	int total, k;		/* steps in the run, the step at (1-based) */
	double t0;		/* the run's start */
	double t_step;		/* the step's start */
	char step[192];		/* "what [k/total] label, ~N s left" */
	volatile sig_atomic_t shown;	/* a line is on the terminal */
	volatile sig_atomic_t stopped;	/* a signal came: show nothing more */
	int fd;
} pr;

/* Before a message on stderr: the line cleared, drawn again by the next update. */
static void clear_for_message(void)
{
	if (pr.how == PH_PROGRESS_TTY && pr.shown && !pr.stopped) {
		fprintf(pr.out, "\r\033[K");
		fflush(pr.out);
	}
	pr.shown = 0;
}

void progress_open(enum ph_progress_out how, FILE *out, double (*now)(void), int width)
{
	memset(&pr, 0, sizeof(pr));
	pr.how = out ? how : PH_PROGRESS_NONE;
	pr.out = out;
	pr.fd = out ? fileno(out) : -1;
	pr.now = now ? now : now_mono_raw;
	pr.width = width > 1 ? width : 80;
	ph_set_before_message(pr.how == PH_PROGRESS_TTY ? clear_for_message : NULL);
}

void progress_setup(enum ph_progress_mode mode, bool unattended)
{
	enum ph_progress_out how = PH_PROGRESS_NONE;
	struct winsize ws;
	int width = 80;

	if (mode == PH_PROGRESS_LOG)
		how = PH_PROGRESS_LINES;
	else if (mode == PH_PROGRESS_AUTO && !unattended && isatty(2))
		how = PH_PROGRESS_TTY;
	if (how == PH_PROGRESS_TTY && !ioctl(2, TIOCGWINSZ, &ws) && ws.ws_col > 0)
		width = ws.ws_col;
	progress_open(how, stderr, now_mono_raw, width);
}

enum ph_progress_out progress_shown(void)
{
	return pr.stopped ? PH_PROGRESS_NONE : pr.how;
}

const char *progress_eta(double left_s, char *buf, size_t size)
{
	if (left_s < 0)
		left_s = 0;
	if (left_s < 89.5)
		snprintf(buf, size, "~%.0f s left", left_s);
	else if (left_s < 89.5 * 60)
		snprintf(buf, size, "~%.0f min left", left_s / 60);
	else
		snprintf(buf, size, "~%.1f h left", left_s / 3600);
	return buf;
}

/* The terminal's line: the step, then tail, cut to one column short of the width. */
static void draw(const char *tail)
{
	char line[512];
	int max = pr.width - 1 < (int)sizeof(line) - 1 ? pr.width - 1 : (int)sizeof(line) - 1;

	snprintf(line, sizeof(line), "%s%s%s", pr.step, *pr.step && *tail ? ": " : "", tail);
	line[max] = '\0';
	fprintf(pr.out, "\r\033[K%s", line);
	fflush(pr.out);
	pr.shown = 1;
}

void progress_begin(int total, const char *what)
{
	snprintf(pr.what, sizeof(pr.what), "%s", what);
	pr.total = total;
	pr.k = 0;
	pr.step[0] = '\0';
	pr.t0 = pr.now();
}

void progress_step(const char *fmt, ...)
{
	char label[128], eta[32] = "";
	va_list ap;

	if (!pr.total)
		return;
	pr.k++;
	pr.t_step = pr.now();
	if (progress_shown() == PH_PROGRESS_NONE)
		return;
	va_start(ap, fmt);
	vsnprintf(label, sizeof(label), fmt, ap);
	va_end(ap);
	if (pr.k > 1 && pr.k <= pr.total) {
		double mean = (pr.now() - pr.t0) / (pr.k - 1);

		progress_eta(mean * (pr.total - pr.k + 1), eta + 2, sizeof(eta) - 2);
		memcpy(eta, ", ", 2);
	}
	snprintf(pr.step, sizeof(pr.step), "%s [%d/%d] %s%s", pr.what, pr.k, pr.total, label, eta);
	if (pr.how == PH_PROGRESS_TTY)
		draw("");
	else
		fprintf(pr.out, "%s\n", pr.step);
}

static void vnote(bool log_it, const char *fmt, va_list ap)
{
	char tail[256];

	if (progress_shown() == PH_PROGRESS_NONE)
		return;
	vsnprintf(tail, sizeof(tail), fmt, ap);
	if (pr.how == PH_PROGRESS_TTY)
		draw(tail);
	else if (log_it && !pr.total)
		fprintf(pr.out, "%s\n", tail);
}

void progress_phase(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(true, fmt, ap);
	va_end(ap);
}

void progress_detail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(false, fmt, ap);
	va_end(ap);
}

double progress_step_seconds(void)
{
	return pr.k ? pr.now() - pr.t_step : 0;
}

void progress_done(void)
{
	if (pr.how == PH_PROGRESS_TTY) {
		clear_for_message();
	} else if (pr.how == PH_PROGRESS_LINES && pr.k && !pr.stopped) {
		fprintf(pr.out, "%s: %d of %d steps in %.1f s\n", pr.what, pr.k, pr.total,
			pr.now() - pr.t0);
	}
	pr.shown = 0;
	pr.total = pr.k = 0;
	pr.step[0] = '\0';
}

void progress_signal(void)
{
	static const char clear[] = "\r\033[K";

	ssize_t w = 0;

	if (pr.how == PH_PROGRESS_TTY && pr.shown && pr.fd >= 0)
		w = write(pr.fd, clear, sizeof(clear) - 1);
	(void)w;	/* nothing to do about a failed write in a signal handler */
	pr.shown = 0;
	pr.stopped = 1;
}
