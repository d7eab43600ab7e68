#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""fleet.py N DIR [options] - N synthetic hosts' documents for "pagehop
compare", made from one real document (a "pagehop baseline --save" file or
a "pagehop check --format json" one; default: host01.json beside this
script), written to DIR as node000001.json ... .

Each host gets its own provenance.host ("node000001", ...) and time_utc (one
second apart from 2026-01-01T00:00:00Z), and each figure of a kind the
comparison judges a value drawn around the template's with the noise of its
kind (latency 1.5%, bandwidth 2%, memory 0.01%, as make.py's fleet), its CI
keeping the template's relative width.  Everything else is the template's,
so each document is as valid as the template is.

Options:
  --models M     spread the hosts over M models (host i in model i % M; the
                 template's model key with ";fleet=<m>" appended): default 1
  --stray-every K  every K-th host (K, 2K, ...) has its first bandwidth
                 figure 20% low, to be found: default 0 (none)
  --template FILE, --seed S (default 1)
Deterministic for a given template and seed."""
import argparse
import copy
import datetime
import json
import os
import random

NOISE = {"latency_": 0.015, "bandwidth_": 0.02, "mem_": 0.0001}


def noise_of(name):
    for prefix, rel in NOISE.items():
        if name.startswith(prefix):
            return rel
    return None


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("n", type=int)
    ap.add_argument("dir")
    ap.add_argument("--template", default=os.path.join(here, "host01.json"))
    ap.add_argument("--models", type=int, default=1)
    ap.add_argument("--stray-every", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.n < 1 or a.models < 1 or a.stray_every < 0:
        ap.error("N and --models must be 1 or more, --stray-every 0 or more")
    with open(a.template) as f:
        tpl = json.load(f)
    model = tpl["identity"]["model_key"]
    t0 = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    rng = random.Random(a.seed)
    os.makedirs(a.dir, exist_ok=True)
    for i in range(1, a.n + 1):
        d = copy.deepcopy(tpl)
        host = "node%06d" % i
        d["provenance"]["host"] = host
        d["provenance"]["time_utc"] = (t0 + datetime.timedelta(seconds=i)).strftime("%Y-%m-%dT%H:%M:%SZ")
        if a.models > 1:
            d["identity"]["model_key"] = "%s;fleet=%d" % (model, i % a.models)
        stray = a.stray_every and i % a.stray_every == 0
        for fig in d["figures"]:
            rel = noise_of(fig["figure"])
            if rel is None or not isinstance(fig.get("value"), (int, float)) or not fig["value"]:
                continue
            v0 = fig["value"]
            v = rng.gauss(v0, v0 * rel)
            if stray and fig["figure"].startswith("bandwidth_"):
                v *= 0.8
                stray = False
            lo = fig.get("ci_lo", v0) / v0
            hi = fig.get("ci_hi", v0) / v0
            fig["value"] = round(v, 4)
            fig["ci_lo"] = round(v * lo, 4)
            fig["ci_hi"] = round(v * hi, 4)
        with open(os.path.join(a.dir, host + ".json"), "w") as f:
            json.dump(d, f, indent=2)
            f.write("\n")


main()
