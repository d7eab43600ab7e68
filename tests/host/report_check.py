#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""report_check.py - what test_report.sh checks of a pagehop report, with
python3's standard library (and Debian's python3-html5lib), never with
pagehop's own code:

  expect FILE.json...      the charts the documents should give, from the
                           JSON itself: one line per chart, "heatmap CELLS
                           OUT" or "curves N", in page order
  dom DOM.html             the charts the browser's DOM holds, the same way
  svgs PAGE.html DIR       every <svg>...</svg> of the page into DIR/N.svg
  html5 PAGE.html          parse as HTML5, strictly; exit 1 on any error
  png SHOT.png             distinct colours and the share of non-white pixels
"""
import json
import os
import re
import struct
import sys
import zlib
from html.parser import HTMLParser


def expect(paths):
    for p in paths:
        d = json.load(open(p))
        prov = d.get("provenance", {})
        if prov.get("version", "").split(".")[:2] != ["0", "1"]:
            continue
        mats = [(k, v) for k, v in d.items() if isinstance(v, dict) and
                {"metric", "rows", "columns", "values"} <= set(v)]
        out = 0
        if prov.get("subcommand") == "slit":
            out = sum(1 for m in d.get("magnitude", []) if m.get("within") is False)
            # measured distances, then the SLIT compared with (both marked),
            # the proposed SLIT, the input last
            order = ["measured_distances", "proposed_slit", "input"]
            byname = dict(mats)
            md = byname["measured_distances"]
            n = len(md["rows"]) * len(md["columns"])
            print("heatmap %d %d" % (n, out))
            print("heatmap %d %d" % (n, out))
            for k in order[1:]:
                m = byname[k]
                print("heatmap %d 0" % (len(m["rows"]) * len(m["columns"])))
            continue
        for k, m in mats:
            print("heatmap %d 0" % (len(m["rows"]) * len(m["columns"])))
        kind = prov.get("subcommand")
        if kind == "c2c":  # CPU x CPU, every CPU of a pair
            pairs = d.get("c2c", [])
            cpus = {r["cpu_a"] for r in pairs} | {r["cpu_b"] for r in pairs}
            print("heatmap %d 0" % (len(cpus) ** 2))
        # a curve per distinct value of the group column, in one chart
        groups = {"scale": ("scale", "placement"), "loaded": ("loaded", "mix"),
                  "locks": ("locks", "kind")}
        if kind in groups and d.get(groups[kind][0]):
            t, g = groups[kind]
            print("curves %d" % len({r[g] for r in d[t]}))
        if kind == "prefetch":  # per pattern, per kernel: a curve per prefetcher setting
            for t in ("latency", "bandwidth"):
                if d.get(t):
                    print("curves %d" % len({r["prefetchers_off"] for r in d[t]}))
        if kind == "scan":  # bandwidth, then latency: a curve per stray mark of the measured ranges
            marks = {r["stray"] for r in d.get("scan", []) if r.get("measured") is True}
            if marks:
                for _ in range(2):
                    print("curves %d" % len(marks))
        if prov.get("subcommand") == "pages":
            sizes = []
            for r in d.get("pages", []):
                if r["page_size"] not in sizes:
                    sizes.append(r["page_size"])
            for _ in range(3):  # random, TLB-local, read bandwidth
                print("curves %d" % len(sizes))


class Dom(HTMLParser):
    def __init__(self):
        super().__init__()
        self.charts = []
        self.bad = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "svg":
            try:
                w, h = float(a.get("width", 0)), float(a.get("height", 0))
            except ValueError:
                w = h = 0
            if w <= 0 or h <= 0:
                self.bad.append("svg without a size: %r" % a)
            kind = "heatmap" if "heatmap" in cls else "curves" if "curves" in cls else "?"
            self.charts.append([kind, 0, 0])
        elif self.charts and tag == "rect" and "cell" in cls:
            self.charts[-1][1] += 1
            self.charts[-1][2] += "out" in cls
        elif self.charts and tag == "path" and "curve" in cls:
            self.charts[-1][1] += 1


def dom(path):
    p = Dom()
    p.feed(open(path, encoding="utf-8").read())
    for b in p.bad:
        print("BAD " + b)
    for kind, n, out in p.charts:
        print("heatmap %d %d" % (n, out) if kind == "heatmap" else "%s %d" % (kind, n))


def svgs(path, outdir):
    text = open(path, encoding="utf-8").read()
    for i, m in enumerate(re.finditer(r"<svg\b.*?</svg>", text, re.S)):
        with open(os.path.join(outdir, "%d.svg" % i), "w") as f:
            f.write(m.group(0))


def html5(path):
    import html5lib
    html5lib.HTMLParser(strict=True).parse(open(path, "rb"))


def png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), "8-bit RGB(A) expected"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    colours, nonwhite = set(), 0
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp * 2):  # every other pixel is plenty
            px = bytes(line[x:x + 3])
            colours.add(px)
            nonwhite += px != b"\xff\xff\xff"
        prev = line
    print("%d %.3f" % (len(colours), nonwhite / (h * ((w + 1) // 2))))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"expect": lambda: expect(args), "dom": lambda: dom(args[0]),
     "svgs": lambda: svgs(args[0], args[1]), "html5": lambda: html5(args[0]),
     "png": lambda: png(args[0])}[cmd]()
