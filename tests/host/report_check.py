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
  cxl PAGE.html FILE.json...
                           each cxl document's charts read back from the
                           page's SVG: every point's value from its pixel
                           through the axis' own tick labels, its source
                           from the nearest category label, its series
                           from the legend's colour; against the figures
                           the JSON holds for that source, series and node,
                           each drawn once, none drawn that it lacks, each
                           it lacks named in the chart's note.  One line
                           per chart, "BAD ..." lines for every fault
"""
import json
import math
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
        if kind == "cxl":  # per node, latency then bandwidth: a series per CPU node and access class drawn
            for node in cxl_nodes(d):
                for fig in CXL_FIGS:
                    print("curves %d" % len({p[0] for p in cxl_points(d, node, fig)}))
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
        elif self.charts and tag in ("path", "g") and "curve" in cls:
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


# The cxl charts: (figure in cxl_explain, in cxl_judge, cxl_measured's
# columns, MiB/s to GB/s for the tables' bandwidth, the chart's title).
CXL_FIGS = [
    ("read_latency_ns", "read_latency_ns", ("lat_ns", "lat_ci_lo_ns", "lat_ci_hi_ns"), 1, "read latency"),
    ("read_bandwidth_MBps", "read_bandwidth_GBps", ("read_GBps", "read_ci_lo_GBps", "read_ci_hi_GBps"),
     1048576 / 1e9, "read bandwidth"),
]
CXL_SRC = [("CDAT", "device_cdat"), ("link", "link"), ("GP", "generic_port"), ("sum", "composed"),
           ("kernel", "kernel_node")]
CXL_JUDGE_SRC = {"device CDAT": "CDAT", "generic port": "GP"}


def cxl_nodes(d):
    nodes = []
    for t in ("cxl_explain", "cxl_measured"):
        for r in d.get(t) or []:
            if r.get("node") is not None and r["node"] not in nodes:
                nodes.append(r["node"])
    return nodes


def cxl_points(d, node, fig):
    """What the JSON holds for node: (series, source, value, lo, hi)."""
    ex, judge, cols, scale, _ = fig
    pts = []
    for r in d.get("cxl_measured") or []:
        if r.get("node") == node and r.get(cols[0]) is not None:
            pts.append(("CPU node %d" % r["cpu_node"], "measured", r[cols[0]], r.get(cols[1]), r.get(cols[2])))
    for r in d.get("cxl_explain") or []:
        if r.get("node") == node and r.get("figure") == ex:
            for src, col in CXL_SRC:
                if r.get(col) is not None:
                    pts.append(("access%d" % r["access"], src, r[col] * scale, None, None))
    for r in d.get("cxl_judge") or []:
        if r.get("node") == node and r.get("figure") == judge and r.get("verdict") == "OFF":
            pts.append(("off", CXL_JUDGE_SRC[r["source"]], r["table"], None, None))
    return pts


def cxl_absent(d, node, fig):
    """What the chart's note must name: (source, access class or CPU node) the JSON lacks."""
    ex, _, cols, _, _ = fig
    out = []
    rows = [r for r in d.get("cxl_measured") or [] if r.get("node") == node]
    said = [n[5:] for n in d.get("notes") or [] if n.startswith("CXL: nothing measured")]
    if not rows:
        out.append("measured: " + (said[0] if said else "no cxl_measured row for node %d" % node))
    for r in rows:
        if r.get(cols[0]) is None:
            out.append("measured from CPU node %d" % r["cpu_node"])
    for src, col in CXL_SRC:
        gone = [a for a in (0, 1) if not any(r.get("node") == node and r.get("figure") == ex and
                                             r.get("access") == a and r.get(col) is not None
                                             for r in d.get("cxl_explain") or [])]
        if gone:
            out.append(("%s of access" % src, gone))
    return out


def cxl_svg(svg):
    """A chart read back: its title, note, and points as (series, source, value, lo, hi)."""
    import xml.etree.ElementTree as ET
    ns = "{http://www.w3.org/2000/svg}"
    root = ET.fromstring(svg)
    kids = list(root)
    title = root.find(ns + "title").text
    note = " ".join(t.text or "" for t in kids if t.tag == ns + "text" and t.get("class") == "note")
    ticks, cats, key, pts, bars = [], {}, {}, [], {}
    names = {"measured", "CDAT", "link", "GP", "sum", "kernel"}
    for i, el in enumerate(kids):
        if el.tag == ns + "text" and el.get("text-anchor") == "end" and i and kids[i - 1].tag == ns + "line":
            ticks.append((float(el.text), float(kids[i - 1].get("y1"))))
        elif el.tag == ns + "text" and el.get("text-anchor") == "middle" and el.text in names:
            cats[el.text] = float(el.get("x"))
        elif el.tag == ns + "circle" and el.get("class") == "key":
            ring = el.get("fill") == "none"
            key[(el.get("stroke") if ring else el.get("fill"), ring)] = kids[i + 1].text
        elif el.tag == ns + "path" and el.get("class") == "err":
            m = re.match(r"M([\d.]+) ([\d.]+)V([\d.]+)", el.get("d"))
            bars[(el.get("stroke"), m.group(1))] = (float(m.group(2)), float(m.group(3)))
        elif el.tag == ns + "g" and el.get("class") == "curve":
            for c in el:
                ring = c.get("fill") == "none"
                pts.append((c.get("stroke") if ring else c.get("fill"), ring, c.get("cx"), float(c.get("cy"))))
    log = "log scale" in "".join(t.text or "" for t in kids if t.tag == ns + "text")
    f = (lambda v: math.log10(v)) if log else (lambda v: v)
    # The axis from its two outermost ticks; every other tick must sit on that line.
    (v0, p0), (v1, p1) = min(ticks), max(ticks)
    a = (p1 - p0) / (f(v1) - f(v0))
    for v, p in ticks:
        assert abs(p0 + a * (f(v) - f(v0)) - p) < 0.15, "tick %g off the axis' line" % v
    back = (lambda p: 10 ** (f(v0) + (p - p0) / a)) if log else (lambda p: v0 + (p - p0) / a)
    step = min(abs(x - y) for x in cats.values() for y in cats.values() if x != y)
    out = []
    for col, ring, cx, cy in pts:
        src = min(cats, key=lambda n: abs(cats[n] - float(cx)))
        assert abs(cats[src] - float(cx)) < 0.3 * step, "a point between categories at x %s" % cx
        lo, hi = bars.get((col, cx), (None, None))
        out.append((key[(col, ring)], src, back(cy), lo and back(lo), hi and back(hi), (a, f, v0, p0, cy)))
    return title, note, out


def cxl(page, paths):
    text = open(page, encoding="utf-8").read()
    svgs = [m.group(0) for m in re.finditer(r"<svg\b.*?</svg>", text, re.S)]
    charts = {}
    for svg in svgs:
        title, note, pts = cxl_svg(svg) if "CXL node" in svg else (None, None, None)
        if title:
            charts.setdefault(title, []).append((note, pts))
    for p in paths:
        d = json.load(open(p))
        for node in cxl_nodes(d):
            for fig in CXL_FIGS:
                title = "CXL node %d: %s, measured and as the tables give it" % (node, fig[4])
                if not charts.get(title):
                    print("BAD %s: no chart '%s'" % (p, title))
                    continue
                note, got = charts[title].pop(0)
                want = cxl_points(d, node, fig)
                bad = []
                for s, src, v, lo, hi in want:
                    m = [g for g in got if g[0].startswith(s) and g[1] == src]
                    if len(m) != 1:
                        bad.append("%s %s %g: drawn %d times" % (s, src, v, len(m)))
                        continue
                    g = m[0]
                    a, f, v0, p0, cy = g[5]
                    # Within a quarter pixel of where the document's figure belongs.
                    if abs(p0 + a * (f(v) - f(v0)) - cy) > 0.25:
                        bad.append("%s %s: %g in the document, %.4g drawn" % (s, src, v, g[2]))
                    if lo is not None and (g[3] is None or abs(g[3] - lo) > abs(lo) * 0.01 + 0.5 / abs(a)):
                        bad.append("%s %s: CI low %g in the document, %s drawn" % (s, src, lo, g[3]))
                    if hi is not None and (g[4] is None or abs(g[4] - hi) > abs(hi) * 0.01 + 0.5 / abs(a)):
                        bad.append("%s %s: CI high %g in the document, %s drawn" % (s, src, hi, g[4]))
                    got.remove(g)
                for g in got:
                    bad.append("%s %s %.4g drawn, not in the document" % (g[0], g[1], g[2]))
                for item in cxl_absent(d, node, fig):
                    if isinstance(item, str):
                        ok = item in note
                    else:
                        what, gone = item
                        ok = ("%s0 and access1" % what) in note if gone == [0, 1] else \
                            all("%s%d" % (what, a) in note for a in gone)
                        item = "%s%s" % (what, gone)
                    if not ok:
                        bad.append("absent %s not named in the note" % item)
                for b in bad:
                    print("BAD %s: node %d %s: %s" % (os.path.basename(p), node, fig[4], b))
                print("%s node %d %s: %d points%s" % (os.path.basename(p), node, fig[4], len(want),
                                                        " BAD" if bad else ""))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"expect": lambda: expect(args), "dom": lambda: dom(args[0]),
     "svgs": lambda: svgs(args[0], args[1]), "html5": lambda: html5(args[0]),
     "png": lambda: png(args[0]), "cxl": lambda: cxl(args[0], args[1:])}[cmd]()
