#!/usr/bin/env python3
"""The parallel efficiency of one profile at NP ranks, computed by hand from a
compare folder's runs.csv (the median of the measured, included runs at 1
rank and at NP, as compare's stats.c efficiency defines it), checked against
its summary.json; prints 'PROFILE: E%'.
    tests/compare-efficiency.py DIR PROFILE higher|lower [NP]"""
import csv
import json
import statistics
import sys

d, prof, better = sys.argv[1], sys.argv[2], sys.argv[3]
np_ = sys.argv[4] if len(sys.argv) > 4 else "2"
rows = [r for r in csv.DictReader(open(d + "/runs.csv")) if r["profile"] == prof
        and r["phase"] == "measure" and r["included"] == "1"]
med = {n: statistics.median(float(r["metric"]) for r in rows if r["np"] == n)
       for n in ("1", np_)}
k = int(np_)
eff = med[np_] / (k * med["1"]) if better == "higher" else med["1"] / (k * med[np_])
s = [x for x in json.load(open(d + "/summary.json"))["results"]
     if x["profile"] == prof and x["np"] == k][0]
assert abs(s["efficiency"] - eff) < 1e-6, (s["efficiency"], eff)
assert 0.001 < eff < 1.5, eff   # a small case between emulated nodes scales badly
print("%s: %.1f%%" % (prof, eff * 100))
