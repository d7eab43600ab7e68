// SPDX-License-Identifier: GPL-2.0-only
/*
 * counters.c - perf_event_open(2) on events libpfm4 resolves (counters.h).
 */
#include "counters.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

void counters_init(struct ph_counters *c, const struct ph_cpu *cpu, const char *devices)
{
	int rc;

	memset(c, 0, sizeof(*c));
	for (int r = 0; r < PMU_NROLES; r++)
		c->fd[r] = -1;
	if (!pmu_present(devices, c->why, sizeof(c->why)))
		return;
	if (pmu_choose(cpu->vendor, cpu->family, cpu->model, &c->choice)) {
		snprintf(c->why, sizeof(c->why), "no counters: %s family %#x model %#x is not in pagehop's event table",
			 cpu->vendor, cpu->family, cpu->model);
		return;
	}
	rc = pfm_initialize();
	if (rc != PFM_SUCCESS) {
		snprintf(c->why, sizeof(c->why), "no counters: libpfm4: %s", pfm_strerror(rc));
		return;
	}
	c->usable = true;
}

static int open_one(const char *name, int *fd, char *why, size_t size)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	int rc;

	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &attr;
	arg.size = sizeof(arg);
	/* PFM_PLM3: user space only, as the chase is. */
	rc = pfm_get_os_event_encoding(name, PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
	if (rc != PFM_SUCCESS) {
		snprintf(why, size, "no counters: libpfm4 cannot resolve %s here: %s", name, pfm_strerror(rc));
		return -EINVAL;
	}
	attr.size = sizeof(attr);
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	*fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (*fd < 0) {
		int e = errno;

		snprintf(why, size, "no counters: perf_event_open %s: %s", name, strerror(e));
		return -e;
	}
	return 0;
}

void counters_open_here(struct ph_counters *c)
{
	if (!c->usable)
		return;
	for (int r = 0; r < PMU_NROLES; r++) {
		int rc;

		if (!c->choice.ev[r])
			continue;
		rc = open_one(c->choice.ev[r], &c->fd[r], c->why, sizeof(c->why));
		if (rc) {
			c->open_err = rc;
			counters_close(c);
			c->usable = false;
			return;
		}
	}
}

void counters_reset(struct ph_counters *c)
{
	c->loads = 0;
	for (int r = 0; r < PMU_NROLES; r++)
		if (c->fd[r] >= 0)
			ioctl(c->fd[r], PERF_EVENT_IOC_RESET, 0);
}

void counters_enable(struct ph_counters *c)
{
	for (int r = 0; r < PMU_NROLES; r++)
		if (c->fd[r] >= 0)
			ioctl(c->fd[r], PERF_EVENT_IOC_ENABLE, 0);
}

void counters_disable(struct ph_counters *c, uint64_t loads)
{
	for (int r = 0; r < PMU_NROLES; r++)
		if (c->fd[r] >= 0)
			ioctl(c->fd[r], PERF_EVENT_IOC_DISABLE, 0);
	c->loads += loads;
}

bool counters_per_load(const struct ph_counters *c, double out[PMU_NROLES])
{
	bool any = false;

	for (int r = 0; r < PMU_NROLES; r++) {
		uint64_t v;

		out[r] = NAN;
		if (c->fd[r] < 0 || !c->loads || read(c->fd[r], &v, sizeof(v)) != (ssize_t)sizeof(v))
			continue;
		out[r] = (double)v / (double)c->loads;
		any = true;
	}
	if (any && c->choice.l1_adds_l2 && isfinite(out[PMU_L1_DTLB]) && isfinite(out[PMU_L2_TLB]))
		out[PMU_L1_DTLB] += out[PMU_L2_TLB];
	return any;
}

void counters_close(struct ph_counters *c)
{
	for (int r = 0; r < PMU_NROLES; r++) {
		if (c->fd[r] >= 0)
			close(c->fd[r]);
		c->fd[r] = -1;
	}
}
