// SPDX-License-Identifier: GPL-2.0-only
/*
 * pagehop_main.c - /dev/pagehop: open, ioctl dispatch, INFO, module setup.
 *
 * pagehop.ko pins memory on the node and at the page size asked for, or
 * fails; reports where any mapping of the caller really is (QUERY); times a
 * pointer chase with interrupts off (CHASE); and controls the hardware
 * prefetchers (PREFETCH).  docs/abi.md is the user's description.
 *
 * This file only registers the device, answers INFO and hands each ioctl
 * to its part; the parts call nothing back up here:
 *   pagehop_buf.c       ALLOC, FREE: pinned buffers and the fd's table of them
 *   pagehop_mmap.c      mmap of a buffer, its VMA operations
 *   pagehop_query.c     QUERY: a walk of the caller's page tables
 *   pagehop_chase.c     CHASE: the timed pointer chase
 *   pagehop_prefetch.c  PREFETCH: the MSRs (pagehop_pfstate.c: what to put back)
 *   pagehop_pin.c       the pin cap, the bytes pinned, node counters, RLIMIT_MEMLOCK
 *   pagehop_features.c  the feature bits
 *   pagehop_uapi.c      copying the versioned structs in and out
 *   pagehop_compat.h    the differences between kernels
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/nodemask.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <asm/cpufeature.h>
#include <asm/tsc.h>

#include "pagehop.h"
#include "pagehop_buf.h"
#include "pagehop_chase.h"
#include "pagehop_features.h"
#include "pagehop_mmap.h"
#include "pagehop_pin.h"
#include "pagehop_prefetch.h"
#include "pagehop_query.h"
#include "pagehop_uapi.h"

static long pagehop_ioc_info(void __user *arg)
{
	struct pagehop_info k;
	u64 __user *nf;
	u32 usize, i, n;
	int err;

	err = pagehop_copy_in(&k, sizeof(k), arg, &usize);
	if (err)
		return err;
	if (k.reserved0 || k.reserved[0] || k.reserved[1] || k.reserved[2] || k.reserved[3])
		return -EINVAL;

	k.api_version = PAGEHOP_API_VERSION;
	k.features = pagehop_features();
	k.tsc_khz = tsc_khz;
	k.tsc_flags = 0;
	if (boot_cpu_has(X86_FEATURE_CONSTANT_TSC))
		k.tsc_flags |= PAGEHOP_TSC_CONSTANT;
	if (boot_cpu_has(X86_FEATURE_NONSTOP_TSC))
		k.tsc_flags |= PAGEHOP_TSC_NONSTOP;
	if (boot_cpu_has(X86_FEATURE_TSC_RELIABLE))
		k.tsc_flags |= PAGEHOP_TSC_RELIABLE;
	if (check_tsc_unstable())
		k.tsc_flags |= PAGEHOP_TSC_UNSTABLE;
	if (boot_cpu_has(X86_FEATURE_TSC_KNOWN_FREQ))
		k.tsc_flags |= PAGEHOP_TSC_KNOWN_FREQ;
	k.pin_cap_bytes = pagehop_pin_cap_bytes();
	k.pinned_bytes = pagehop_pinned_bytes();

	nf = u64_to_user_ptr(k.node_free_ptr);
	n = min_t(u32, k.node_free_count, nr_node_ids);
	if (nf) {
		for (i = 0; i < n; i++) {
			/* The ABI counts 4 KiB pages whatever PAGE_SIZE is. */
			u64 v = pagehop_node_free_pages(i) * (PAGE_SIZE / 4096);

			if (put_user(v, nf + i))
				return -EFAULT;
		}
	}
	k.node_free_count = nr_node_ids;
	return pagehop_copy_out(arg, &k, sizeof(k), usize);
}

static int pagehop_open(struct inode *inode, struct file *filp)
{
	struct pagehop_file *pf;

	/* Mode 0600 keeps others out; this keeps out root without the cap. */
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	pf = kzalloc(sizeof(*pf), GFP_KERNEL);
	if (!pf)
		return -ENOMEM;
	xa_init_flags(&pf->bufs, XA_FLAGS_ALLOC1);
	filp->private_data = pf;
	/* The misc core set private_data to the miscdevice; we replace it. */
	return nonseekable_open(inode, filp);
}

/*
 * Called when the last reference to the file goes: after close() and after
 * the last VMA (each holds vm_file) is unmapped.  Buffers still mapped
 * elsewhere cannot exist then, but FREE-less buffers are dropped here.
 */
static int pagehop_release(struct inode *inode, struct file *filp)
{
	struct pagehop_file *pf = filp->private_data;

	pagehop_prefetch_release(pf);
	pagehop_file_release_bufs(pf);
	xa_destroy(&pf->bufs);
	bitmap_free(pf->pf_set);
	kfree(pf);
	return 0;
}

static long pagehop_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct pagehop_file *pf = filp->private_data;
	void __user *uarg = (void __user *)arg;

	/* Dispatch on type and number only: "size" in the struct governs. */
	if (_IOC_TYPE(cmd) != PAGEHOP_IOC_MAGIC)
		return -ENOTTY;
	switch (_IOC_NR(cmd)) {
	case _IOC_NR(PAGEHOP_IOC_INFO):
		return pagehop_ioc_info(uarg);
	case _IOC_NR(PAGEHOP_IOC_ALLOC):
		return pagehop_ioc_alloc(pf, uarg);
	case _IOC_NR(PAGEHOP_IOC_FREE):
		return pagehop_ioc_free(pf, uarg);
	case _IOC_NR(PAGEHOP_IOC_QUERY):
		return pagehop_ioc_query(uarg);
	case _IOC_NR(PAGEHOP_IOC_CHASE):
		return pagehop_ioc_chase(pf, uarg);
	case _IOC_NR(PAGEHOP_IOC_PREFETCH):
		return pagehop_ioc_prefetch(pf, uarg);
	default:
		return -ENOTTY;
	}
}

static const struct file_operations pagehop_fops = {
	.owner = THIS_MODULE,
	.open = pagehop_open,
	.release = pagehop_release,
	.unlocked_ioctl = pagehop_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = pagehop_mmap,
	.get_unmapped_area = pagehop_get_unmapped_area,
};

static struct miscdevice pagehop_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = PAGEHOP_DEVICE_NAME,
	.fops = &pagehop_fops,
	.mode = 0600,
};

static int __init pagehop_init(void)
{
	int err;

	err = pagehop_prefetch_init();
	if (err)
		goto fail;
	err = misc_register(&pagehop_misc);
	if (err)
		goto fail_prefetch;
	pr_info("/dev/%s ready: API %d, pin cap %llu MiB, features 0x%llx\n",
		PAGEHOP_DEVICE_NAME, PAGEHOP_API_VERSION,
		pagehop_pin_cap_bytes() >> 20, pagehop_features());
	return 0;

fail_prefetch:
	pagehop_prefetch_exit();
fail:
	return err;
}

/*
 * No buffer can exist here: each is referenced from an open file (the fd's
 * table or a VMA's vm_file), and every open file holds a module reference,
 * so delete_module() fails (EWOULDBLOCK, "in use") until the last is gone.
 */
static void __exit pagehop_exit(void)
{
	misc_deregister(&pagehop_misc);
	pagehop_prefetch_exit();
}

module_init(pagehop_init);
module_exit(pagehop_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("pagehop: pinned node-local pages, mapping queries, TSC pointer chase, prefetcher control");
MODULE_VERSION(__stringify(PAGEHOP_API_VERSION));
