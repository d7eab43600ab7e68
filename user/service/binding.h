/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * binding.h - which CPUs the threads run on and which node each thread's
 * memory goes to, from numactl-style options.
 */
#ifndef PAGEHOP_BINDING_H
#define PAGEHOP_BINDING_H

#include <stdbool.h>
#include <stddef.h>

struct bitmask;
struct ph_cpu;

struct ph_bindopts {
	struct bitmask *membind;	/* NULL: each thread's local node */
	struct bitmask *interleave;	/* NULL, or pages round robin over these */
	struct bitmask *cpunodebind;	/* NULL, or the CPUs of these nodes */
	struct bitmask *physcpubind;	/* NULL, or these CPUs */
	unsigned threads;		/* 0: the command's default */
};

struct ph_binding {
	int n;
	int *cpus;		/* thread i runs on cpus[i] */
	int *nodes;		/* thread i's memory node; -1 with interleave */
	char cpus_text[256];	/* "0,2,4" */
	char nodes_text[256];	/* "0,1" or "interleave:0-1" */
};

/*
 * Resolve o into threads.  default_threads is used when o->threads is 0;
 * 0 there means one thread per core of the CPU set.  Threads go to distinct
 * cores first, SMT siblings only when the cores run out.  With membind, a
 * thread's memory is the member node nearest (SLIT) to its CPU's node.
 * 0, or -EINVAL with why filled.
 */
int binding_resolve(const struct ph_bindopts *o, const struct ph_cpu *cpu,
		    unsigned default_threads, struct ph_binding *b,
		    char *why, size_t whylen);
/*
 * The CPUs of node this process may run on, in CPU order, into *out
 * (freed by the caller); all it may run on when node is -1 (interleave) or
 * the node has none of them.  Returns how many.  The setup work that
 * writes or reads a whole buffer (touch.c, chain.c) runs there: from the
 * node's own CPUs those accesses are local.
 */
int binding_node_cpus(int node, int **out);
void binding_free(struct ph_binding *b);
void bindopts_free(struct ph_bindopts *o);

#endif
