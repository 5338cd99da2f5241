#!/usr/bin/env python3
"""Summarises a JMH JSON result of PipelineBenchmark (scripts/bench.sh -rf json -rff target/jmh.json):
per request, pipeline and baseline time, their ratio, the cached answer, time per child, allocation ratio.
   scripts/bench-summary.py target/jmh.json"""
import json, sys

rows = {}
for r in json.load(open(sys.argv[1])):
    case = r["params"]["request"]
    kind = r["benchmark"].rsplit(".", 1)[1]
    m = r["primaryMetric"]
    alloc = r.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score")
    rows.setdefault(case, {})[kind] = (m["score"], m["scoreError"], alloc)

def us(v):
    return f"{v:,.0f}" if v >= 100 else f"{v:,.1f}"

print("| request | pipeline µs/op (±99.9%) | baseline µs/op | pipeline/baseline | cached µs/op | pipeline µs per child | allocation pipeline/baseline |")
print("|---|---:|---:|---:|---:|---:|---:|")
for case, k in rows.items():
    p, pe, pa = k.get("pipeline", (0, 0, None))
    b, be, ba = k.get("baseline", (0, 0, None))
    c = k.get("cached", (0, 0, None))[0]
    size = case.rsplit(":", 1)[1] if ":" in case and case.rsplit(":", 1)[1].isdigit() else ""
    per_child = us(p / int(size)) if size else ""
    alloc = f"{pa / ba:.2f}" if pa and ba else ""
    print(f"| {case} | {us(p)} ± {us(pe)} | {us(b)} ± {us(be)} | {p / b:.2f} | {us(c)} | {per_child} | {alloc} |")
