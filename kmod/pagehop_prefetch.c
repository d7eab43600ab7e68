// SPDX-License-Identifier: GPL-2.0-only
/*
 * pagehop_prefetch.c - PREFETCH: read and set the hardware prefetcher
 * disable bits of one CPU, and put them back.
 *
 *  - Intel (family 6): MSR 0x1A4 MISC_FEATURE_CONTROL, bits 0-3 (L2
 *    streamer, L2 adjacent line, L1 streamer, L1 IP stride); 1 disables.
 *  - AMD Zen 4 and later: MSR 0xC0000108 PrefetchControl, bits 0-3 and 5
 *    (L1 stream, L1 stride, L1 region, L2 stream, L2 up/down); 1 disables.
 *  - anything else, or an MSR that faults when read: -EOPNOTSUPP.
 *
 * Only the _safe_ accessors are used, so a CPU or hypervisor that does not
 * implement the MSR gives an error instead of a #GP.  The first SET on a
 * CPU by any fd records that CPU's value; when the last fd that SET it is
 * released, and at module unload, the recorded value is written back.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <asm/processor.h>

#include "pagehop.h"

#define PAGEHOP_MSR_INTEL_MISC_FEATURE	0x1a4
#define PAGEHOP_MSR_AMD_PREFETCH_CTL	0xc0000108

static u32 pagehop_pf_kind;		/* enum pagehop_prefetch_msr, 0 if none */
static u32 pagehop_pf_msr;
static u64 pagehop_pf_mask;
static DEFINE_MUTEX(pagehop_pf_lock);	/* guards the two arrays below */
static u64 *pagehop_pf_orig;		/* per CPU: the MSR before the first SET */
static unsigned int *pagehop_pf_users;	/* per CPU: fds that have SET it */

bool pagehop_prefetch_supported(void)
{
	return pagehop_pf_kind != 0;
}

/* Zen 4: family 19h models 10h-1Fh and 60h-AFh; Zen 5 and later: 1Ah+. */
static bool pagehop_amd_zen4_or_later(void)
{
	u8 model = boot_cpu_data.x86_model;

	if (boot_cpu_data.x86 >= 0x1a)
		return true;
	return boot_cpu_data.x86 == 0x19 &&
	       ((model >= 0x10 && model <= 0x1f) || (model >= 0x60 && model <= 0xaf));
}

int pagehop_prefetch_init(void)
{
	u64 v;

	if (boot_cpu_data.x86_vendor == X86_VENDOR_INTEL && boot_cpu_data.x86 == 6) {
		pagehop_pf_kind = PAGEHOP_PF_INTEL_MISC_FEATURE;
		pagehop_pf_msr = PAGEHOP_MSR_INTEL_MISC_FEATURE;
		pagehop_pf_mask = 0xf;
	} else if (boot_cpu_data.x86_vendor == X86_VENDOR_AMD && pagehop_amd_zen4_or_later()) {
		pagehop_pf_kind = PAGEHOP_PF_AMD_PREFETCH_CTL;
		pagehop_pf_msr = PAGEHOP_MSR_AMD_PREFETCH_CTL;
		pagehop_pf_mask = 0x2f;
	}
	/* The vendor says it should be there; the CPU (or VM) must agree. */
	if (pagehop_pf_kind &&
	    pagehop_rdmsr_safe_on_cpu(cpumask_first(cpu_online_mask), pagehop_pf_msr, &v))
		pagehop_pf_kind = 0;
	if (!pagehop_pf_kind)
		return 0;

	pagehop_pf_orig = kcalloc(nr_cpu_ids, sizeof(*pagehop_pf_orig), GFP_KERNEL);
	pagehop_pf_users = kcalloc(nr_cpu_ids, sizeof(*pagehop_pf_users), GFP_KERNEL);
	if (!pagehop_pf_orig || !pagehop_pf_users) {
		kfree(pagehop_pf_orig);
		kfree(pagehop_pf_users);
		pagehop_pf_kind = 0;
		return -ENOMEM;
	}
	return 0;
}

static void pagehop_pf_restore(unsigned int cpu)
{
	if (pagehop_wrmsr_safe_on_cpu(cpu, pagehop_pf_msr, pagehop_pf_orig[cpu]))
		pr_warn("cannot restore prefetcher MSR 0x%x on CPU %u\n", pagehop_pf_msr, cpu);
}

void pagehop_prefetch_exit(void)
{
	unsigned int cpu;

	if (!pagehop_pf_kind)
		return;
	/* Every fd is closed by now; this is the belt to their braces. */
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (pagehop_pf_users[cpu] && cpu_online(cpu))
			pagehop_pf_restore(cpu);
	kfree(pagehop_pf_orig);
	kfree(pagehop_pf_users);
}

void pagehop_prefetch_release(struct pagehop_file *pf)
{
	unsigned int cpu;

	if (!pf->pf_set)
		return;
	mutex_lock(&pagehop_pf_lock);
	for_each_set_bit(cpu, pf->pf_set, nr_cpu_ids)
		if (--pagehop_pf_users[cpu] == 0)
			pagehop_pf_restore(cpu);
	mutex_unlock(&pagehop_pf_lock);
}

long pagehop_ioc_prefetch(struct pagehop_file *pf, void __user *arg)
{
	struct pagehop_prefetch k;
	u64 cur, next;
	u32 usize;
	int err;

	err = pagehop_copy_in(&k, sizeof(k), arg, &usize);
	if (err)
		return err;
	if (k.reserved[0] || k.reserved[1])
		return -EINVAL;
	if (k.op != PAGEHOP_PREFETCH_GET && k.op != PAGEHOP_PREFETCH_SET)
		return -EINVAL;
	if (k.cpu >= nr_cpu_ids || !cpu_online(k.cpu))
		return -EINVAL;
	if (!pagehop_pf_kind)
		return -EOPNOTSUPP;
	if (k.op == PAGEHOP_PREFETCH_SET && (k.disable & ~pagehop_pf_mask))
		return -EINVAL;

	mutex_lock(&pagehop_pf_lock);
	if (pagehop_rdmsr_safe_on_cpu(k.cpu, pagehop_pf_msr, &cur)) {
		err = -EOPNOTSUPP;
		goto out;
	}
	if (k.op == PAGEHOP_PREFETCH_SET) {
		if (!pf->pf_set) {
			pf->pf_set = bitmap_zalloc(nr_cpu_ids, GFP_KERNEL);
			if (!pf->pf_set) {
				err = -ENOMEM;
				goto out;
			}
		}
		next = (cur & ~pagehop_pf_mask) | k.disable;
		if (pagehop_wrmsr_safe_on_cpu(k.cpu, pagehop_pf_msr, next)) {
			err = -EIO;
			goto out;
		}
		if (!test_bit(k.cpu, pf->pf_set)) {
			if (pagehop_pf_users[k.cpu]++ == 0)
				pagehop_pf_orig[k.cpu] = cur;
			set_bit(k.cpu, pf->pf_set);
		}
		pr_notice_ratelimited("%s[%d]: PREFETCH: CPU %u prefetcher disable bits 0x%llx -> 0x%llx\n",
				      current->comm, task_pid_nr(current), k.cpu,
				      cur & pagehop_pf_mask, k.disable);
		cur = next;
	}
	k.msr_kind = pagehop_pf_kind;
	k.disable = cur & pagehop_pf_mask;
	k.supported = pagehop_pf_mask;
	k.original = (pagehop_pf_users[k.cpu] ? pagehop_pf_orig[k.cpu] : cur) & pagehop_pf_mask;
	err = 0;
out:
	mutex_unlock(&pagehop_pf_lock);
	if (!err)
		err = pagehop_copy_out(arg, &k, sizeof(k), usize);
	return err;
}
