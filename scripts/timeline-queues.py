#!/usr/bin/env python3
"""Per-queue summary of a SOFTHSA_TIMELINE file (docs/BENCHMARKS.md, "where the 16 streams'
time goes"): for every queue track with at least MIN packets, its packets' durations (launch to
completion) and the gaps between one packet's end and the next one's launch, in microseconds.

    scripts/timeline-queues.py t.json [MIN]     (MIN: default 100)
"""
import collections
import json
import sys


def load(path):
    text = open(path).read().strip()
    # (A timeline cut short by a crash may lack its closing bracket.)
    if not text.endswith("]"):
        text = text.rstrip(",\n") + "]"
    return json.loads(text)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    least = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    packets = collections.defaultdict(list)
    for e in load(sys.argv[1]):
        if e.get("ph") == "X" and e.get("cat") == "packet":
            packets[e["tid"]].append((float(e["ts"]), float(e["dur"])))
    rows = []
    for track, v in packets.items():
        if len(v) < least:
            continue
        v.sort()
        gaps = sorted(b[0] - (a[0] + a[1]) for a, b in zip(v, v[1:]))
        durs = sorted(d for _, d in v)
        span = v[-1][0] + v[-1][1] - v[0][0]
        rows.append((span, track, len(v), durs, gaps))
    print("track       n  span_ms  dur_mean dur_med dur_max  gap_mean gap_med gap_max  gaps_ms")
    for span, track, n, durs, gaps in sorted(rows):
        mean = lambda xs: sum(xs) / len(xs) if xs else 0.0
        mid = lambda xs: xs[len(xs) // 2] if xs else 0.0
        print(
            f"{track:<8} {n:>5} {span / 1e3:8.2f}  {mean(durs):8.1f} {mid(durs):7.1f} {durs[-1]:7.0f}"
            f"  {mean(gaps):8.2f} {mid(gaps):7.2f} {max(gaps, default=0):7.0f} {sum(gaps) / 1e3:8.2f}"
        )


if __name__ == "__main__":
    main()
