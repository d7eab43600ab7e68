// SPDX-License-Identifier: GPL-2.0-only
/*
 * pagehop_prefetch.c - PREFETCH: read and set the hardware prefetcher
 * disable bits of one CPU, and put them back.
 *
 *  - Intel, the models pagehop_pf_intel_model_known() names: MSR 0x1A4
 *    MISC_FEATURE_CONTROL, bits 0-3 (L2 streamer, L2 adjacent line, L1
 *    streamer, L1 IP stride); 1 disables.  One register per core, shared
 *    by its SMT siblings.
 *  - AMD Zen 4 and later: MSR 0xC0000108 PrefetchControl, bits 0-3 and 5
 *    (L1 stream, L1 stride, L1 region, L2 stream, L2 up/down); 1 disables.
 *    The AMD documents at hand do not say whether the register is per
 *    thread or per core: state is kept per logical CPU, which is exact for
 *    a per-thread register.
 *  - anything else, or an MSR that faults when read: -EOPNOTSUPP.
 *
 * Only the _safe_ accessors are used, so a CPU or hypervisor that does not
 * implement the MSR gives an error instead of a #GP.  A write is read back,
 * and what the register holds is what the caller is told.  SET writes an
 * MSR, so it asks what a write through /dev/cpu/N/msr asks
 * (arch/x86/kernel/msr.c): CAP_SYS_RAWIO, and a kernel not locked down.
 *
 * What is remembered and put back is pagehop_pfstate.c's (pure logic, unit
 * tested): per register, the value before pagehop's first change; each
 * open file holds a reference to each register it set; when the last goes
 * (the file's last reference: close, or the last munmap of a mapping of
 * it) only pagehop's changes are undone.  A register with no CPU online at
 * that moment is restored when one of its CPUs comes online, or tried
 * again at unload.  The hotplug lock is taken before pagehop_pf_lock, in
 * the ioctl and release paths as in the hotplug callback.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/mutex.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/uaccess.h>
#include <asm/processor.h>

#include "pagehop.h"
#include "pagehop_pfstate.h"
#include "pagehop_prefetch.h"
#include "pagehop_uapi.h"

#define PAGEHOP_MSR_INTEL_MISC_FEATURE	0x1a4
#define PAGEHOP_MSR_AMD_PREFETCH_CTL	0xc0000108

static u32 pagehop_pf_kind;		/* enum pagehop_prefetch_msr, 0 if none */
static u32 pagehop_pf_msr;
static DEFINE_MUTEX(pagehop_pf_lock);	/* guards pagehop_pf_state */
static struct pagehop_pfstate pagehop_pf_state;
static int pagehop_pf_hp_state = -1;	/* the CPU hotplug state, once set up */

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

static int pagehop_pf_read(void *ctx, u32 cpu, u64 *val)
{
	return pagehop_rdmsr_safe_on_cpu(cpu, pagehop_pf_msr, val) ? -EIO : 0;
}

static int pagehop_pf_write(void *ctx, u32 cpu, u64 val)
{
	return pagehop_wrmsr_safe_on_cpu(cpu, pagehop_pf_msr, val) ? -EIO : 0;
}

/*
 * Which register a CPU's is: on Intel its core (package and core id, which
 * x86 keeps for an offline CPU), elsewhere the CPU itself.
 */
static u64 pagehop_pf_key(void *ctx, u32 cpu)
{
	if (pagehop_pf_kind == PAGEHOP_PF_INTEL_MISC_FEATURE)
		return ((u64)topology_physical_package_id(cpu) << 32) |
		       (u32)topology_core_id(cpu);
	return cpu;
}

/* Called with the hotplug lock held (read, or by the hotplug itself). */
static int pagehop_pf_online_cpu(void *ctx, u64 key)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		if (pagehop_pf_key(ctx, cpu) == key)
			return cpu;
	return -1;
}

static const struct pagehop_pfops pagehop_pf_ops = {
	.read = pagehop_pf_read,
	.write = pagehop_pf_write,
	.key = pagehop_pf_key,
	.online_cpu = pagehop_pf_online_cpu,
};

/* A CPU came online: restores owed to its register. */
static int pagehop_pf_cpu_online(unsigned int cpu)
{
	int err;

	mutex_lock(&pagehop_pf_lock);
	err = pagehop_pfstate_settle(&pagehop_pf_state, &pagehop_pf_ops, cpu);
	mutex_unlock(&pagehop_pf_lock);
	if (err < 0)
		pr_warn("cannot restore prefetcher MSR 0x%x through CPU %u\n", pagehop_pf_msr, cpu);
	return 0;
}

int pagehop_prefetch_init(void)
{
	u64 v;
	int err;

	if (boot_cpu_data.x86_vendor == X86_VENDOR_INTEL &&
	    pagehop_pf_intel_model_known(boot_cpu_data.x86, boot_cpu_data.x86_model)) {
		pagehop_pf_kind = PAGEHOP_PF_INTEL_MISC_FEATURE;
		pagehop_pf_msr = PAGEHOP_MSR_INTEL_MISC_FEATURE;
		pagehop_pf_state.mask = 0xf;
	} else if (boot_cpu_data.x86_vendor == X86_VENDOR_AMD && pagehop_amd_zen4_or_later()) {
		pagehop_pf_kind = PAGEHOP_PF_AMD_PREFETCH_CTL;
		pagehop_pf_msr = PAGEHOP_MSR_AMD_PREFETCH_CTL;
		pagehop_pf_state.mask = 0x2f;
	}
	/* The model says it should be there; the CPU (or VM) must agree. */
	if (pagehop_pf_kind &&
	    pagehop_rdmsr_safe_on_cpu(cpumask_first(cpu_online_mask), pagehop_pf_msr, &v))
		pagehop_pf_kind = 0;
	if (!pagehop_pf_kind)
		return 0;

	/* At most one register per CPU. */
	pagehop_pf_state.nr = nr_cpu_ids;
	err = -ENOMEM;
	pagehop_pf_state.reg = kcalloc(nr_cpu_ids, sizeof(*pagehop_pf_state.reg), GFP_KERNEL);
	if (!pagehop_pf_state.reg)
		goto fail;
	err = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "pagehop/prefetch:online",
					pagehop_pf_cpu_online, NULL);
	if (err < 0)
		goto fail_free;
	pagehop_pf_hp_state = err;
	return 0;

fail_free:
	kfree(pagehop_pf_state.reg);
	pagehop_pf_state.reg = NULL;
fail:
	pagehop_pf_kind = 0;
	return err;
}

void pagehop_prefetch_exit(void)
{
	int owed;

	if (!pagehop_pf_kind)
		return;
	if (pagehop_pf_hp_state >= 0)
		cpuhp_remove_state_nocalls(pagehop_pf_hp_state);
	/* Every file is gone by now: only restores owed to offline registers are left. */
	cpus_read_lock();
	mutex_lock(&pagehop_pf_lock);
	owed = pagehop_pfstate_settle(&pagehop_pf_state, &pagehop_pf_ops, -1);
	mutex_unlock(&pagehop_pf_lock);
	cpus_read_unlock();
	if (owed)
		pr_warn("unloading with prefetcher MSR 0x%x not restored on %d register(s): %s\n",
			pagehop_pf_msr, owed < 0 ? 1 : owed,
			owed < 0 ? "the write failed" : "no CPU of theirs is online");
	kfree(pagehop_pf_state.reg);
}

void pagehop_prefetch_release(struct pagehop_file *pf)
{
	int owed;

	if (!pf->pf_set)
		return;
	cpus_read_lock();
	mutex_lock(&pagehop_pf_lock);
	owed = pagehop_pfstate_release(&pagehop_pf_state, &pagehop_pf_ops, pf->pf_set);
	mutex_unlock(&pagehop_pf_lock);
	cpus_read_unlock();
	if (owed < 0)
		pr_warn("cannot restore prefetcher MSR 0x%x\n", pagehop_pf_msr);
	else if (owed)
		pr_notice("prefetcher MSR 0x%x of %d register(s) restored when a CPU of theirs comes online\n",
			  pagehop_pf_msr, owed);
}

long pagehop_ioc_prefetch(struct pagehop_file *pf, void __user *arg)
{
	struct pagehop_prefetch k;
	u64 cur, orig;
	u32 usize;
	int err;

	err = pagehop_copy_in(&k, sizeof(k), arg, &usize);
	if (err)
		return err;
	if (k.reserved[0] || k.reserved[1])
		return -EINVAL;
	if (k.op != PAGEHOP_PREFETCH_GET && k.op != PAGEHOP_PREFETCH_SET)
		return -EINVAL;
	if (k.cpu >= nr_cpu_ids)
		return -EINVAL;
	/* As a write through /dev/cpu/N/msr, whether or not this CPU has the MSR. */
	if (k.op == PAGEHOP_PREFETCH_SET) {
		if (!capable(CAP_SYS_RAWIO))
			return -EPERM;
		err = security_locked_down(LOCKDOWN_MSR);
		if (err)
			return err;
	}
	if (!pagehop_pf_kind)
		return cpu_online(k.cpu) ? -EOPNOTSUPP : -EINVAL;
	if (k.op == PAGEHOP_PREFETCH_SET && (k.disable & ~pagehop_pf_state.mask))
		return -EINVAL;

	cpus_read_lock();
	mutex_lock(&pagehop_pf_lock);
	err = -EINVAL;
	if (!cpu_online(k.cpu))
		goto out;
	if (k.op == PAGEHOP_PREFETCH_SET) {
		err = -ENOMEM;
		if (!pf->pf_set)
			pf->pf_set = bitmap_zalloc(pagehop_pf_state.nr, GFP_KERNEL);
		if (!pf->pf_set)
			goto out;
		err = pagehop_pfstate_set(&pagehop_pf_state, &pagehop_pf_ops, pf->pf_set, k.cpu,
					  k.disable, &cur, &orig);
		if (!err)
			pr_notice_ratelimited("%s[%d]: PREFETCH: CPU %u prefetcher disable bits set to 0x%llx, the register holds 0x%llx\n",
					      current->comm, task_pid_nr(current), k.cpu,
					      k.disable, cur);
	} else {
		err = pagehop_pfstate_get(&pagehop_pf_state, &pagehop_pf_ops, k.cpu, &cur, &orig);
		if (err)
			err = -EOPNOTSUPP;
	}
out:
	mutex_unlock(&pagehop_pf_lock);
	cpus_read_unlock();
	if (err)
		return err;
	k.msr_kind = pagehop_pf_kind;
	k.disable = cur;
	k.supported = pagehop_pf_state.mask;
	k.original = orig;
	return pagehop_copy_out(arg, &k, sizeof(k), usize);
}
