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
  points PAGE.html FILE.json...
                           every point of each document's distribution
                           charts read back from the page's SVG (through
                           the axes' tick labels, as a reader would) against
                           the document's histogram and percentiles; one
                           line per chart, "BAD ..." for each difference
  cxl PAGE.html FILE.json...
                           each cxl document's charts read back from the
                           page's SVG the same way: every point's value
                           from its pixel through the axis' own tick
                           labels, its source from the nearest category
                           label, its series from the series' name; against
                           the figures the JSON holds for that source,
                           series and node, each drawn once, none drawn
                           that it lacks, each it lacks named in the
                           chart's caption.  One line per chart, "BAD ..."
                           lines for every fault
"""
import html
import json
import math
import os
import re
import struct
import sys
import zlib
import xml.etree.ElementTree as ET
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
        if kind in DIST_KEY:  # the histogram's CDF, then the percentiles: a curve per figure
            cdf, pct = dist_expect(d, kind)
            if cdf:
                print("curves %d" % len(cdf))
            if pct:
                print("curves %d" % len(pct))
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


# A figure's name in a distribution chart's legend, from its key columns.
DIST_KEY = {
    "chase": lambda r: r["pattern"],
    "loaded": lambda r: r["mix"] + ("" if r.get("delay") is None else " delay %d" % r["delay"]),
    "matrix": lambda r: "cell %d,%d" % (r["cpu_node"], r["mem_node"]),
}
PCT = re.compile(r"^p[0-9.]+_ns$")


def dist_expect(d, kind):
    """{name: [(x, y)]} of the cumulative share below each bucket's upper
    edge, 0 at the first one's lower edge (edges <= 0 cannot be drawn on a
    log axis, their samples count),
    and {name: [(category, y, lo, hi)]} of the percentiles, the median's CI
    at p50; figures without a point left out."""
    cdf, counts = {}, {}
    for r in d.get(kind + "_histogram") or []:
        rows = counts.setdefault(DIST_KEY[kind](r), [])
        if not rows:  # nothing below the first bucket: 0 at its lower edge
            rows.append((r["lo_ns"], 0))
        rows.append((r["hi_ns"], r["count"]))
    for name, rows in counts.items():
        total, below, pts = sum(c for _, c in rows), 0, []
        for hi, c in rows:
            below += c
            if hi > 0:
                pts.append((hi, below / total))
        if pts:
            cdf[name] = pts
    pct = {}
    for r in d.get(kind + "_dist") or []:
        pts = [(k[:-3], v, r.get("dist_ci_lo_ns") if k == "p50_ns" else None,
                r.get("dist_ci_hi_ns") if k == "p50_ns" else None)
               for k, v in r.items() if PCT.match(k) and v is not None]
        if pts:
            pct[DIST_KEY[kind](r)] = pts
    return cdf, pct


SVG = "{http://www.w3.org/2000/svg}"


def axis_map(pairs, log, inverse=False):
    """pixel = a + b * f(value) through the first and last tick, f log2 or
    not; with inverse, the value at a pixel."""
    f, g = (math.log2, math.exp2) if log else ((lambda v: v), (lambda v: v))
    (p0, v0), (p1, v1) = pairs[0], pairs[-1]
    b = (p1 - p0) / (f(v1) - f(v0))
    if inverse:
        return lambda p: g(f(v0) + (p - p0) / b)
    return lambda v: p0 + b * (f(v) - f(v0))


def read_chart(svg):
    """The chart's x ticks [(px, label)], y ticks [(py, label)] and series
    [(name, [(cx, cy)], [(px, py_lo, py_hi)])], as drawn."""
    root = ET.fromstring(svg)
    kids = list(root)
    frame = next(k for k in kids if k.tag == SVG + "rect" and k.get("fill") == "none")
    bottom = float(frame.get("y")) + float(frame.get("height"))
    xt, yt = [], []
    for i, k in enumerate(kids):
        if k.tag != SVG + "text" or k.get("transform"):
            continue
        prev = kids[i - 1] if i else None
        grid = prev is not None and prev.tag == SVG + "line"
        # the labels under the frame, on one row or two; the axis's name below them
        if k.get("text-anchor") == "middle" and bottom < float(k.get("y")) <= bottom + 32:
            xt.append((float(k.get("x")), k.text))
        elif k.get("text-anchor") == "end" and grid:
            yt.append((float(prev.get("y1")), k.text))
    series = []
    for g in root.iter(SVG + "g"):
        if g.get("class") != "series":
            continue
        name = next(t.text for t in g if t.get("class") == "name")
        pts = [(float(c.get("cx")), float(c.get("cy"))) for c in g
               if c.tag == SVG + "circle" and c.get("class") != "key"]
        bars = []
        for e in g:
            if e.get("class") == "err":
                m = re.match(r"M([-0-9.]+) ([-0-9.]+)V([-0-9.]+)", e.get("d"))
                bars.append(tuple(float(v) for v in m.groups()))
        series.append((name, pts, bars))
    return xt, yt, series


def sections(page):
    """{document path: its section's text} of the page."""
    out = {}
    for m in re.finditer(r'<section class="doc".*?</section>', page, re.S):
        h = re.search(r"<h2>(?:pagehop [a-z0-9]+: )?(.*?)</h2>", m.group(0))
        out[h.group(1).replace("&amp;", "&")] = m.group(0)
    return out


def points(page, paths):
    tol = 0.6  # px: a point is printed to 0.1 px, a tick's pixel too
    secs = sections(open(page, encoding="utf-8").read())
    for p in paths:
        d = json.load(open(p))
        kind = d.get("provenance", {}).get("subcommand")
        sec = secs.get(p)
        if sec is None:
            print("BAD %s: no section in the page" % p)
            continue
        charts = {}
        for svg in re.findall(r"<svg\b.*?</svg>", sec, re.S):
            t = re.search(r"<title>(.*?)</title>", svg).group(1)
            if t.startswith("latency distribution") or t.startswith("latency percentiles"):
                charts.setdefault(t.split(",")[0], []).append(svg)
        cdf, pct = dist_expect(d, kind) if kind in DIST_KEY else ({}, {})
        want = {"latency distribution (cumulative)": cdf, "latency percentiles": pct}
        for title, exp in want.items():
            got = charts.get(title, [])
            if len(got) != (1 if exp else 0):
                print("BAD %s: %d charts '%s', expected %d" % (p, len(got), title, 1 if exp else 0))
                continue
            if not exp:
                print("%s: no chart '%s' (the document has no such table)" % (p, title))
                continue
            xt, yt, series = read_chart(got[0])
            names = [s[0] for s in series]
            if names != list(exp):
                print("BAD %s: %s: curves %s, expected %s" % (p, title, names, list(exp)))
                continue
            cdf_chart = exp is cdf
            if cdf_chart:  # x log2 ns, y a linear share
                fx = axis_map([(px, float(v)) for px, v in xt], True)
                cat = None
            else:  # x the percentiles' names, y log2 ns
                cat = dict((v, px) for px, v in xt)
            fy = axis_map([(py, float(v)) for py, v in yt], not cdf_chart)
            n = nbars = bad = 0
            for (name, pts, bars), (_, epts) in zip(series, exp.items()):
                if len(pts) != len(epts):
                    print("BAD %s: %s: %s has %d points, expected %d" % (p, title, name, len(pts), len(epts)))
                    bad += 1
                    continue
                ebars = []
                for (cx, cy), e in zip(pts, epts):
                    wx = fx(e[0]) if cdf_chart else cat.get(e[0], float("nan"))
                    if not (abs(cx - wx) <= tol and abs(cy - fy(e[1])) <= tol):
                        print("BAD %s: %s: %s at (%.1f, %.1f), expected %s at (%.1f, %.1f)"
                              % (p, title, name, cx, cy, e[:2], wx, fy(e[1])))
                        bad += 1
                    n += 1
                    if not cdf_chart and e[2] is not None and e[3] is not None and e[2] > 0:
                        ebars.append((wx, fy(e[2]), fy(e[3])))
                if len(bars) != len(ebars) or any(abs(a - b) > tol for g, w in zip(bars, ebars)
                                                    for a, b in zip(g, w)):
                    print("BAD %s: %s: %s's CI bars %s, expected %s" % (p, title, name, bars, ebars))
                    bad += 1
                nbars += len(bars)
            bad += caption(p, title, d, kind, sec, got[0])
            if not bad:
                print("%s: %s: %d curves, %d points%s as the document's, its caption the document's words" %
                      (p, title, len(series), n, ", %d CI bars" % nbars if not cdf_chart else ""))


def figcaption(sec, svg):
    """The words under the chart svg of the section sec, or None."""
    at = sec.find(svg)
    m = re.match(r"\s*<figcaption>(.*?)</figcaption>", sec[at + len(svg):], re.S)
    return html.unescape(m.group(1)) if m else None


def caption(p, title, d, kind, sec, svg):
    """The words under a chart: the document's own dist_sample, each
    figure's hops per sample and each one's why_not; the number of faults."""
    text = figcaption(sec, svg)
    if text is None:
        print("BAD %s: %s: no caption" % (p, title))
        return 1
    want = [v["dist_sample"] for v in d.values() if isinstance(v, dict) and "dist_sample" in v]
    rows = d.get(kind + "_dist") or []
    hops = {r["hops_per_sample"] for r in rows if not r.get("why_not")}
    measured = [r for r in rows if not r.get("why_not")]
    if len(measured) > 1 and len(hops) == 1:
        want.append("Hops per sample: %d, every figure." % hops.pop())
    else:
        want += [" %s %d" % (DIST_KEY[kind](r), r["hops_per_sample"]) for r in measured]
    want += ["%s: no distribution: %s." % (DIST_KEY[kind](r), r["why_not"]) for r in rows if r.get("why_not")]
    if title.startswith("latency distribution"):
        want += ["%s: %d samples at or below 0 ns" % (DIST_KEY[kind](r), r["count"])
                 for r in d.get(kind + "_histogram") or [] if r["hi_ns"] <= 0]
    missing = [w for w in want if w not in text]
    for w in missing:
        print("BAD %s: %s: the caption lacks %r: %r" % (p, title, w, text))
    return len(missing)


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
        elif self.charts and tag == "g" and "series" in cls:
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
    """What the chart's caption must name: (source, access class or CPU node) the JSON lacks."""
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


def cxl_chart(svg, log):
    """A chart read back through read_chart: the y axis (value to pixel,
    pixel to value) and its points as (series, source, cy, lo, hi), lo and
    hi the pixels of the point's CI bar or None."""
    xt, yt, series = read_chart(svg)
    ticks = [(py, float(v)) for py, v in yt]
    fy, back = axis_map(ticks, log), axis_map(ticks, log, True)
    # The axis from its two outermost ticks; every other tick must sit on that line.
    for py, v in ticks:
        assert abs(fy(v) - py) < 0.15, "tick %g off the axis' line" % v
    cats = dict((v, px) for px, v in xt)
    step = min(abs(x - y) for x in cats.values() for y in cats.values() if x != y)
    out = []
    for name, pts, bars in series:
        for cx, cy in pts:
            src = min(cats, key=lambda n: abs(cats[n] - cx))
            assert abs(cats[src] - cx) < 0.3 * step, "a point between categories at x %s" % cx
            bar = [(lo, hi) for bx, lo, hi in bars if abs(bx - cx) < 0.05]
            out.append((name, src, cy) + (bar[0] if bar else (None, None)))
    return fy, back, out


def cxl(page, paths):
    secs = sections(open(page, encoding="utf-8").read())
    for p in paths:
        d = json.load(open(p))
        sec = secs.get(p) or ""
        svgs = {re.search(r"<title>(.*?)</title>", svg).group(1): svg
                for svg in re.findall(r"<svg\b.*?</svg>", sec, re.S)}
        for node in cxl_nodes(d):
            for fig in CXL_FIGS:
                title = "CXL node %d: %s, measured and as the tables give it" % (node, fig[4])
                if title not in svgs:
                    print("BAD %s: no chart '%s'" % (p, title))
                    continue
                # Bandwidth on a log2 axis, as the man page says: a link's MB/s beside a port's GB/s.
                fy, back, got = cxl_chart(svgs[title], fig[0] == "read_bandwidth_MBps")
                note = figcaption(sec, svgs[title]) or ""
                want = cxl_points(d, node, fig)
                bad = []
                for s, src, v, lo, hi in want:
                    m = [g for g in got if g[0].startswith(s) and g[1] == src]
                    if len(m) != 1:
                        bad.append("%s %s %g: drawn %d times" % (s, src, v, len(m)))
                        continue
                    g = m[0]
                    # Within a quarter pixel of where the document's figure belongs, its CI within half a pixel.
                    if abs(fy(v) - g[2]) > 0.25:
                        bad.append("%s %s: %g in the document, %.4g drawn" % (s, src, v, back(g[2])))
                    for what, e, px in (("low", lo, g[3]), ("high", hi, g[4])):
                        if e is not None and (px is None or abs(fy(e) - px) > 0.5):
                            bad.append("%s %s: CI %s %g in the document, %s drawn" %
                                       (s, src, what, e, px is not None and "%.4g" % back(px)))
                    got.remove(g)
                for g in got:
                    bad.append("%s %s %.4g drawn, not in the document" % (g[0], g[1], back(g[2])))
                for item in cxl_absent(d, node, fig):
                    if isinstance(item, str):
                        ok = item in note
                    else:
                        what, gone = item
                        ok = ("%s0 and access1" % what) in note if gone == [0, 1] else \
                            all("%s%d" % (what, a) in note for a in gone)
                        item = "%s%s" % (what, gone)
                    if not ok:
                        bad.append("absent %s not named in the caption" % item)
                for b in bad:
                    print("BAD %s: node %d %s: %s" % (os.path.basename(p), node, fig[4], b))
                print("%s node %d %s: %d points%s" % (os.path.basename(p), node, fig[4], len(want),
                                                        " BAD" if bad else ""))


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"expect": lambda: expect(args), "dom": lambda: dom(args[0]),
     "svgs": lambda: svgs(args[0], args[1]), "html5": lambda: html5(args[0]),
     "png": lambda: png(args[0]), "points": lambda: points(args[0], args[1:]),
     "cxl": lambda: cxl(args[0], args[1:])}[cmd]()
