#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""plot_check.py SVG - what a gnuplot SVG holds, read with python's XML
parser (so the file must parse): one line "panels N", then per panel (in
drawing order) "panel P: K plots", then every <text> element's text, one
per line, prefixed "text: ".  gnuplot names each drawn plot element
<g id="gnuplot_plot_<n><panel letter>">; that is what is counted."""
import re
import sys
import xml.etree.ElementTree as ET

root = ET.parse(sys.argv[1]).getroot()
panels = {}
texts = []
for el in root.iter():
    tag = el.tag.split('}')[-1]
    m = re.match(r'gnuplot_plot_(\d+)([a-z]*)$', el.get('id', ''))
    if tag == 'g' and m:
        panels.setdefault(m.group(2), set()).add(int(m.group(1)))
    if tag == 'text':
        t = ''.join(el.itertext()).strip()
        if t:
            texts.append(t)
print("panels %d" % len(panels))
for p in sorted(panels):
    print("panel %s: %d plots" % (p, len(panels[p])))
for t in texts:
    print("text: " + t)
