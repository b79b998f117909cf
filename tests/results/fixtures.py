#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes two copyperf results files with a known difference, for the compare and plot tests.

A.json and B.json hold the routines "steady" and "slower" at the 14 seed sizes, five
repeats each.  In B, "steady" has A's very samples in another order (no difference at
all) and "slower" takes exactly 1/0.9 of A's time at every repeat: its median speed is
90% of A's, and B's five repeats are all slower than A's five (Mann-Whitney exact
p = 2/252 = 0.0079).
"""
import json
import sys

TOTAL = 32 << 20
JITTER = [0.0, 0.01, -0.01, 0.02, -0.02]  # spread of the repeats: +-2%, all distinct


def seconds(chunk, routine):
    # a plausible curve: slow for small chunks, about 10 GB/s at 64 KiB
    speed = 10e9 * chunk / (chunk + 256) * (0.7 if routine == "slower" else 1.0)
    return TOTAL / speed


def document(samples_of):
    results = []
    for routine in ("steady", "slower"):
        for k in range(14):
            chunk = 65536 >> k
            samples = samples_of(routine, chunk)
            results.append({
                "routine": routine, "space": "user", "chunk": chunk, "total": TOTAL,
                "repeats": len(samples),
                "seconds": {"median": sorted(samples)[2], "min": min(samples), "max": max(samples)},
                "samples": samples, "verified": True,
            })
    return {
        "tool": "copyperf", "version": "0.1.0",
        "machine": {"cpu": "Fixture CPU \"quoted\"", "arch": "x86_64", "kernel": "Linux 6.1.0",
                    "libc": "glibc 2.36", "compiler": "gcc 12", "host": "fixture", "caches": {}},
        "config": {"routines": [], "sizes": [65536 >> k for k in range(14)], "total": TOTAL,
                   "buffer": 65536, "cache": "flush", "align": {"src": 0, "dst": 0},
                   "repeat": 5, "format": "json", "output": None, "cpu": -1, "kernel": False},
        "results": results,
    }


def a_samples(routine, chunk):
    return [seconds(chunk, routine) * (1 + j) for j in JITTER]


def b_samples(routine, chunk):
    a = a_samples(routine, chunk)
    return a[::-1] if routine == "steady" else [t / 0.9 for t in a]


def main():
    out = sys.argv[1]
    for name, fn in (("A.json", a_samples), ("B.json", b_samples)):
        with open(f"{out}/{name}", "w") as f:
            json.dump(document(fn), f, indent=1)


main()
