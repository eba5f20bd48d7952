#!/usr/bin/env python3
"""A plot rdmarun drew, checked as a person would look at it (issue 51):
the PNG's size from its IHDR chunk, and each text in the SVG whole (one text
element, as gnuplot writes an unenhanced string: enhanced text would split
"time_per_iter" into subscripts), within the picture's width.
    tests/plot-check.py BASE WIDTH HEIGHT TEXT...   (BASE.png and BASE.svg)"""
import math
import re
import struct
import sys
import xml.etree.ElementTree as ET

base, width, height, texts = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
png = open(base + ".png", "rb").read()
assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR", "not a PNG"
w, h = struct.unpack(">II", png[16:24])
assert (w, h) == (width, height), ("PNG size", w, h)
svg = ET.parse(base + ".svg").getroot()
ns = "{http://www.w3.org/2000/svg}"
shown = []
for t in svg.iter(ns + "text"):
    s = "".join(t.itertext()).strip()
    shown.append(s)
    # nothing drawn past the right edge: a left-anchored text rotated
    # down (a bin label) reaches its anchor + its length x cos(angle), at
    # about 7 px a character of gnuplot's default font
    tr = t.get("transform", "") or ""
    m = re.search(r"translate\(([-0-9.]+)", tr)
    x = float(m.group(1)) if m else float(t.get("x", 0) or 0)
    r = re.search(r"rotate\(([-0-9.]+)", tr)
    anchor = t.get("style", "") + " " + (t.get("text-anchor") or "")
    reach = 7 * len(s) * abs(math.cos(math.radians(float(r.group(1))))) if r else 0
    if "end" in anchor:
        lo, hi = x - reach, x
    elif "middle" in anchor:
        lo, hi = x - reach / 2, x + reach / 2
    else:
        lo, hi = x, x + reach
    assert -1 <= lo and hi <= width + 1, ("text outside the picture", s, lo, hi)
for want in texts:
    assert any(want == s for s in shown), ("no text element reads", want, shown[:40])
print("%s.png %dx%d; texts: %s" % (base, w, h, "; ".join(texts)))
