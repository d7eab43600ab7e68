/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * pagehop.h - the ABI of /dev/pagehop, shared by pagehop.ko and the pagehop
 * command.  docs/abi.md describes every ioctl, its errors and the feature bits.
 *
 * Rules every struct here follows:
 *  - it starts with "__u32 size", set by the caller to sizeof() of the struct
 *    as it was compiled; the module copies it in with copy_struct_from_user(),
 *    so a struct may only grow at its end and old binaries keep working;
 *  - fields are fixed width, padding is explicit, user pointers are __u64;
 *  - reserved words and flags not defined here must be zero (else -EINVAL);
 *  - enums start at 1 so that an uninitialised field is caught.
 *
 * The module dispatches on the ioctl's type and number only; the size encoded
 * in the command is that of this version of the struct, and the "size" field
 * is what the module trusts.
 */
#ifndef _UAPI_PAGEHOP_H
#define _UAPI_PAGEHOP_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define PAGEHOP_API_VERSION	1
#define PAGEHOP_DEVICE_NAME	"pagehop"	/* /dev/pagehop */

/* Page sizes a buffer can be made of. */
enum pagehop_page_size {
	PAGEHOP_PAGE_4K = 1,
	PAGEHOP_PAGE_2M = 2,
	PAGEHOP_PAGE_1G = 3,
};

/* Feature bits reported by PAGEHOP_IOC_INFO: what this build can do here. */
#define PAGEHOP_FEAT_PAGE_4K	(1ULL << 0)	/* ALLOC+mmap of 4 KiB pages */
#define PAGEHOP_FEAT_PAGE_2M	(1ULL << 1)	/* ALLOC+mmap mapped by 2 MiB leaves */
#define PAGEHOP_FEAT_PAGE_1G	(1ULL << 2)	/* ALLOC+mmap mapped by 1 GiB leaves */
#define PAGEHOP_FEAT_QUERY	(1ULL << 3)	/* PAGEHOP_IOC_QUERY */
#define PAGEHOP_FEAT_CHASE	(1ULL << 4)	/* PAGEHOP_IOC_CHASE */
#define PAGEHOP_FEAT_PREFETCH	(1ULL << 5)	/* PAGEHOP_IOC_PREFETCH on this CPU */
#define PAGEHOP_FEAT_CHASE_HOPS	(1ULL << 6)	/* CHASE windows end at
						 * PAGEHOP_CHASE_WINDOW_US and
						 * report their hops (hops_ptr) */
#define PAGEHOP_FEAT_MAP_XLATE	(1ULL << 7)	/* mmap may choose a translation
						 * smaller than the buffer's
						 * pages (PAGEHOP_MMAP_XLATE) */

/* TSC facts reported by PAGEHOP_IOC_INFO (tsc_flags). */
#define PAGEHOP_TSC_CONSTANT	(1U << 0)	/* X86_FEATURE_CONSTANT_TSC */
#define PAGEHOP_TSC_NONSTOP	(1U << 1)	/* X86_FEATURE_NONSTOP_TSC */
#define PAGEHOP_TSC_RELIABLE	(1U << 2)	/* X86_FEATURE_TSC_RELIABLE */
#define PAGEHOP_TSC_UNSTABLE	(1U << 3)	/* the kernel marked the TSC unstable */
#define PAGEHOP_TSC_KNOWN_FREQ	(1U << 4)	/* X86_FEATURE_TSC_KNOWN_FREQ */

/*
 * PAGEHOP_IOC_INFO: the first call the command makes.
 */
struct pagehop_info {
	__u32 size;		/* (in) sizeof(struct pagehop_info) */
	__u32 api_version;	/* (out) PAGEHOP_API_VERSION of the module */
	__u64 features;		/* (out) PAGEHOP_FEAT_* */
	__u32 tsc_khz;		/* (out) the kernel's TSC frequency, kHz */
	__u32 tsc_flags;	/* (out) PAGEHOP_TSC_* */
	__u64 pin_cap_bytes;	/* (out) most the module will pin, bytes */
	__u64 pinned_bytes;	/* (out) bytes pinned by the module now */
	__u64 node_free_ptr;	/* (in) user pointer to __u64[node_free_count],
				 * filled with each node's free pages (4 KiB
				 * units); 0 to skip */
	__u32 node_free_count;	/* (in) entries at node_free_ptr;
				 * (out) nr_node_ids */
	__u32 reserved0;	/* must be 0 */
	__u64 reserved[4];	/* must be 0 */
};

/*
 * PAGEHOP_IOC_ALLOC: pin length bytes on node, made of page_size pages,
 * zeroed, each page physically contiguous.  Never falls back to another node
 * or page size: ENOMEM (no memory on that node), EOPNOTSUPP (page size this
 * kernel cannot map), E2BIG (over the pin cap or the node's 5% floor),
 * EPERM (over the caller's RLIMIT_MEMLOCK without CAP_IPC_LOCK: the buffer
 * counts in its VmPin), EINVAL (bad node, page size, length or flags).
 */
struct pagehop_alloc {
	__u32 size;		/* (in) sizeof(struct pagehop_alloc) */
	__u32 node;		/* (in) NUMA node id */
	__u32 page_size;	/* (in) enum pagehop_page_size */
	__u32 flags;		/* (in) must be 0 */
	__u64 length;		/* (in) bytes, a non-zero multiple of page_size */
	__u32 id;		/* (out) buffer id, > 0 */
	__u32 reserved0;	/* must be 0 */
	__u64 mmap_offset;	/* (out) offset to pass to mmap() */
	__u64 reserved[2];	/* must be 0 */
};

/*
 * The translation of one mapping (PAGEHOP_FEAT_MAP_XLATE): mmap at
 * mmap_offset + off | PAGEHOP_MMAP_XLATE(ps) maps the buffer with leaves of
 * page size ps (enum pagehop_page_size), no larger than the buffer's own
 * pages: a 1 GiB buffer as 4 KiB PTEs, 2 MiB PMDs or its 1 GiB PUDs, over
 * the same frames.  0 in these bits is the buffer's own page size.
 */
#define PAGEHOP_MMAP_XLATE_SHIFT	60
#define PAGEHOP_MMAP_XLATE(ps)	((__u64)(ps) << PAGEHOP_MMAP_XLATE_SHIFT)

/* PAGEHOP_IOC_FREE: drop the fd's reference; mappings keep the pages alive. */
struct pagehop_free {
	__u32 size;		/* (in) sizeof(struct pagehop_free) */
	__u32 id;		/* (in) buffer id from ALLOC */
	__u64 reserved[2];	/* must be 0 */
};

/* Levels of a leaf in the page tables (pagehop_query_entry.level). */
enum pagehop_level {
	PAGEHOP_LEVEL_NONE = 1,	/* not mapped: a hole of "length" bytes */
	PAGEHOP_LEVEL_PTE = 2,	/* 4 KiB leaf */
	PAGEHOP_LEVEL_PMD = 3,	/* 2 MiB leaf */
	PAGEHOP_LEVEL_PUD = 4,	/* 1 GiB leaf */
};

struct pagehop_query_entry {
	__u64 addr;		/* (out) first virtual address of the leaf */
	__u64 length;		/* (out) bytes covered: the leaf size, or the
				 * hole's length for PAGEHOP_LEVEL_NONE */
	__u64 pfn;		/* (out) first page frame number of the leaf */
	__u32 level;		/* (out) enum pagehop_level */
	__s32 node;		/* (out) page_to_nid(), -1 if the frame is
				 * not online memory (pfn_to_online_page) */
};

/*
 * PAGEHOP_IOC_QUERY: walk the caller's own page tables over
 * [addr, addr + length) and report one entry per leaf.  Works on any mapping
 * (the module's, hugetlbfs, THP, anonymous); a PROT_NONE mapping is a hole.
 * If max_entries runs out, or the call's bounded share of walking is done,
 * the walk stops and next_addr (always past addr) says where to continue; a
 * hole may then go on in the next call's first entry.
 */
struct pagehop_query {
	__u32 size;		/* (in) sizeof(struct pagehop_query) */
	__u32 flags;		/* (in) must be 0 */
	__u64 addr;		/* (in) start, 4 KiB aligned */
	__u64 length;		/* (in) bytes, a non-zero multiple of 4 KiB */
	__u64 entries_ptr;	/* (in) user pointer to pagehop_query_entry[] */
	__u32 max_entries;	/* (in) entries at entries_ptr, > 0 */
	__u32 nr_entries;	/* (out) entries written */
	__u64 next_addr;	/* (out) addr + length when the walk completed */
	__u64 reserved[2];	/* must be 0 */
};

/* The most hops one CHASE window may take. */
#define PAGEHOP_CHASE_MAX_LOADS		16384
#define PAGEHOP_CHASE_MAX_WINDOWS	65536
/*
 * The longest a CHASE window keeps interrupts off, in TSC time (tsc_khz):
 * a window ends early, at a whole hop, when its next 64 hops, as slow as its
 * last 64, would pass this (PAGEHOP_FEAT_CHASE_HOPS).
 */
#define PAGEHOP_CHASE_WINDOW_US		1000

/*
 * PAGEHOP_IOC_CHASE: walk a pointer chain written by userspace in a buffer
 * of this fd, on one CPU, with interrupts off during each window.  Each slot
 * holds, in its first 8 bytes, the byte offset of the next slot from the
 * buffer's start.  The walk starts at "start"; hops that leave the buffer or
 * are not 8-byte aligned end the call with EINVAL.  A window takes
 * loads_per_window hops or ends at PAGEHOP_CHASE_WINDOW_US, whichever comes
 * first; the next window goes on from where it ended.  hops_ptr says how
 * many hops each window took; without it (0, or a struct from before it
 * existed) a window that ends early fails the call with ETIME, since the
 * caller would take its cycles for loads_per_window hops.
 */
struct pagehop_chase {
	__u32 size;		/* (in) sizeof(struct pagehop_chase) */
	__u32 id;		/* (in) buffer id */
	__u32 cpu;		/* (in) CPU to run on */
	__u32 flags;		/* (in) must be 0 */
	__u64 start;		/* (in) byte offset of the first slot */
	__u32 loads_per_window;	/* (in) 1..PAGEHOP_CHASE_MAX_LOADS */
	__u32 windows;		/* (in) 1..PAGEHOP_CHASE_MAX_WINDOWS */
	__u64 cycles_ptr;	/* (in) user pointer to __u64[windows]:
				 * (out) TSC cycles of each window */
	__u64 end;		/* (out) offset reached after the last hop */
	__u64 reserved[2];	/* must be 0 */
	__u64 hops_ptr;		/* (in) user pointer to __u32[windows]:
				 * (out) hops each window took; or 0 */
};

/* Operations of PAGEHOP_IOC_PREFETCH. */
enum pagehop_prefetch_op {
	PAGEHOP_PREFETCH_GET = 1,
	PAGEHOP_PREFETCH_SET = 2,
};

/* Which MSR a CPU's prefetchers are controlled through. */
enum pagehop_prefetch_msr {
	PAGEHOP_PF_INTEL_MISC_FEATURE = 1,	/* MSR 0x1A4, bits 0-3 */
	PAGEHOP_PF_AMD_PREFETCH_CTL = 2,	/* MSR 0xC0000108 (Zen 4+) */
};

/*
 * PAGEHOP_IOC_PREFETCH: read or set one CPU's hardware prefetcher disable
 * bits.  "disable" uses the MSR's own bit layout (a set bit disables that
 * prefetcher, on both vendors); only bits in "supported" may be set; after
 * a SET it says what the register holds, read back.  SET needs
 * CAP_SYS_RAWIO and a kernel not locked down (EPERM).  The module keeps a
 * register's value from before its first change (per core on Intel, where
 * SMT siblings share it) and undoes its changes when the last file that
 * set it is released (last close, or last munmap of a mapping of it).
 * EOPNOTSUPP where the CPU has no such control.
 */
struct pagehop_prefetch {
	__u32 size;		/* (in) sizeof(struct pagehop_prefetch) */
	__u32 op;		/* (in) enum pagehop_prefetch_op */
	__u32 cpu;		/* (in) CPU id */
	__u32 msr_kind;		/* (out) enum pagehop_prefetch_msr */
	__u64 disable;		/* (in, SET) bits to disable, the rest enabled;
				 * (out) the disable bits now in force */
	__u64 supported;	/* (out) bits this CPU lets pagehop control */
	__u64 original;		/* (out) disable bits before pagehop's first
				 * change to this CPU's register (= disable
				 * if pagehop holds none) */
	__u64 reserved[2];	/* must be 0 */
};

#define PAGEHOP_IOC_MAGIC	0xBE

#define PAGEHOP_IOC_INFO	_IOWR(PAGEHOP_IOC_MAGIC, 1, struct pagehop_info)
#define PAGEHOP_IOC_ALLOC	_IOWR(PAGEHOP_IOC_MAGIC, 2, struct pagehop_alloc)
#define PAGEHOP_IOC_FREE	_IOW(PAGEHOP_IOC_MAGIC, 3, struct pagehop_free)
#define PAGEHOP_IOC_QUERY	_IOWR(PAGEHOP_IOC_MAGIC, 4, struct pagehop_query)
#define PAGEHOP_IOC_CHASE	_IOWR(PAGEHOP_IOC_MAGIC, 5, struct pagehop_chase)
#define PAGEHOP_IOC_PREFETCH	_IOWR(PAGEHOP_IOC_MAGIC, 6, struct pagehop_prefetch)

#endif /* _UAPI_PAGEHOP_H */
