// SPDX-License-Identifier: GPL-2.0-only
/*
 * prefetch.c - name and set the hardware prefetchers through pagehop.ko.
 *
 * Intel MSR 0x1A4 (MSR_MISC_FEATURE_CONTROL), a set bit disables:
 *   0 L2 hardware (streamer) prefetcher, 1 L2 adjacent cache line prefetcher,
 *   2 DCU (L1 next-line) prefetcher, 3 DCU IP (L1 stride) prefetcher.
 * AMD MSR 0xC0000108 (PrefetchControl, Zen 4 and later), a set bit disables:
 *   0 L1 stream, 1 L1 stride, 2 L1 region, 3 L2 stream, 5 L2 up/down.
 */
#include "prefetch.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const struct ph_pf_bit intel_bits[] = {
	{ 0, "l2_stream", "L2 hardware (streamer) prefetcher" },
	{ 1, "l2_adjacent", "L2 adjacent cache line prefetcher" },
	{ 2, "l1_next_line", "L1 data (DCU) next-line prefetcher" },
	{ 3, "l1_ip_stride", "L1 data IP-based stride prefetcher" },
};

static const struct ph_pf_bit amd_bits[] = {
	{ 0, "l1_stream", "L1 stream prefetcher" },
	{ 1, "l1_stride", "L1 stride prefetcher" },
	{ 2, "l1_region", "L1 region prefetcher" },
	{ 3, "l2_stream", "L2 stream prefetcher" },
	{ 5, "l2_up_down", "L2 up/down prefetcher" },
};

const char *pf_msr_name(uint32_t kind)
{
	return kind == PAGEHOP_PF_INTEL_MISC_FEATURE ? "0x1a4 (Intel MISC_FEATURE_CONTROL)" :
	       kind == PAGEHOP_PF_AMD_PREFETCH_CTL ? "0xc0000108 (AMD PrefetchControl)" : "?";
}

void pf_probe(struct ph_kmod *km, int cpu, struct ph_pf *pf)
{
	struct pagehop_prefetch q = { .op = PAGEHOP_PREFETCH_GET, .cpu = (uint32_t)cpu }, s;
	int err;

	memset(pf, 0, sizeof(*pf));
	pf->cpu = cpu;
	if (km->fd < 0) {
		snprintf(pf->why, sizeof(pf->why), "no prefetcher control: %s", km->why);
		return;
	}
	err = kmod_prefetch(km, &q);
	if (err) {
		snprintf(pf->why, sizeof(pf->why),
			 "no prefetcher control on CPU %d: PREFETCH failed with %s (%s)%s", cpu,
			 err == -EOPNOTSUPP ? "EOPNOTSUPP" : "an error", strerror(-err),
			 err == -EOPNOTSUPP ? ": this CPU has no prefetch MSR pagehop.ko can use" : "");
		return;
	}
	/*
	 * SET asks for more than GET (CAP_SYS_RAWIO, a kernel not locked
	 * down): find out now, with a SET of what is there, which changes
	 * nothing and leaves nothing to restore.
	 */
	s = (struct pagehop_prefetch){ .op = PAGEHOP_PREFETCH_SET, .cpu = (uint32_t)cpu,
				       .disable = q.disable };
	err = kmod_prefetch(km, &s);
	if (err) {
		snprintf(pf->why, sizeof(pf->why),
			 "no prefetcher control on CPU %d: PREFETCH SET failed with %s (%s)%s", cpu,
			 err == -EPERM ? "EPERM" : "an error", strerror(-err),
			 err == -EPERM ? ": it needs CAP_SYS_RAWIO and a kernel that is not locked down (/sys/kernel/security/lockdown)" : "");
		return;
	}
	pf->control = true;
	pf->msr_kind = q.msr_kind;
	pf->supported = q.supported;
	pf->original = q.original;
	if (q.msr_kind == PAGEHOP_PF_INTEL_MISC_FEATURE) {
		pf->bits = intel_bits;
		pf->nbits = (int)ARRAY_SIZE(intel_bits);
	} else {
		pf->bits = amd_bits;
		pf->nbits = (int)ARRAY_SIZE(amd_bits);
	}
}

int pf_set(struct ph_kmod *km, const struct ph_pf *pf, uint64_t disable, uint64_t *now)
{
	struct pagehop_prefetch q = { .op = PAGEHOP_PREFETCH_SET, .cpu = (uint32_t)pf->cpu,
				      .disable = disable & pf->supported };
	int err = kmod_prefetch(km, &q);

	if (!err && now)
		*now = q.disable;
	return err;
}

const char *pf_names(const struct ph_pf *pf, uint64_t disable, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < pf->nbits && len < size; i++)
		if (disable & (1ull << pf->bits[i].bit))
			len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? "," : "",
						pf->bits[i].name);
	if (!len)
		snprintf(buf, size, "none");
	return buf;
}
