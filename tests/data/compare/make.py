#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""make.py - the synthetic fleet of tests/data/compare: 20 alike hosts of one
model whose figures are drawn with realistic noise (bandwidth 2%, latency
1.5%, MemTotal 0.01% of its sigma), one host of that model whose node 1
triad is 20% low ("stray.json"), and two hosts of another model (too few to
judge).  Deterministic: the seed is fixed; rerun to regenerate."""
import json
import random

rng = random.Random(13)
MODEL = "cpu=Example CPU 9999;sockets=2;nodes=2;node0=32x2;node1=32x2"
OTHER = "cpu=Other CPU 1234;sockets=1;nodes=1;node0=16x1"
MEANS = {"latency_4k": (110.0, "ns", 0.015), "latency_2m": (95.0, "ns", 0.015),
         "bandwidth_read": (150.0, "GB/s", 0.02), "bandwidth_triad": (120.0, "GB/s", 0.02),
         "mem_total": (251.5, "GiB", 0.0001)}


def doc(host, model, nodes, stray=None):
    figs = []
    for node in range(nodes):
        for name, (mean, unit, rel) in MEANS.items():
            v = rng.gauss(mean, mean * rel)
            if stray == (node, name):
                v *= 0.8
            half = 0 if unit == "GiB" else v * rel / 2
            figs.append({"figure": name, "node": node, "mem_node": node, "value": round(v, 4),
                         "unit": unit, "ci_lo": round(v - half, 4), "ci_hi": round(v + half, 4)})
    return {"provenance": {"tool": "pagehop", "subcommand": "check", "host": host},
            "identity": {"model_key": model}, "figures": figs}


def write(name, d):
    with open(name, "w") as f:
        json.dump(d, f, indent=1)
        f.write("\n")


for i in range(1, 21):
    write("host%02d.json" % i, doc("host%02d" % i, MODEL, 2))
write("stray.json", doc("stray", MODEL, 2, stray=(1, "bandwidth_triad")))
write("other1.json", doc("other1", OTHER, 1))
write("other2.json", doc("other2", OTHER, 1))
