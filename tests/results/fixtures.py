#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes copyperf results files with a known difference, for the compare and plot tests.

A.json and B.json hold the routines "steady" and "slower" at the 14 seed sizes, five
repeats each.  In B, "steady" has A's very samples in another order (no difference at
all) and "slower" takes exactly 1/0.9 of A's time at every repeat: its median speed is
90% of A's, and B's five repeats are all slower than A's five (Mann-Whitney exact
p = 2/252 = 0.0079).

RA.json and RB.json are the same two routines replaying recorded call mixes
(--distribution): memcpy_fleet and memmove_fleet, each in the working sets l1 and l2,
4096 calls per measurement, seed 42, with the same difference between A and B.
"""
import json
import sys

TOTAL = 32 << 20
JITTER = [0.0, 0.01, -0.01, 0.02, -0.02]  # spread of the repeats: +-2%, all distinct


def seconds(chunk, routine):
    # a plausible curve: slow for small chunks, about 10 GB/s at 64 KiB
    speed = 10e9 * chunk / (chunk + 256) * (0.7 if routine == "slower" else 1.0)
    return TOTAL / speed


def measured(samples):
    return {"repeats": len(samples),
            "seconds": {"median": sorted(samples)[2], "min": min(samples), "max": max(samples)},
            "samples": samples, "verified": True}


def document(samples_of):
    results = []
    for routine in ("steady", "slower"):
        for k in range(14):
            chunk = 65536 >> k
            results.append({"routine": routine, "space": "user", "chunk": chunk, "total": TOTAL,
                            **measured(samples_of(routine, seconds(chunk, routine)))})
    return {
        "tool": "copyperf", "version": "0.1.0",
        "machine": {"cpu": "Fixture CPU \"quoted\"", "arch": "x86_64", "kernel": "Linux 6.1.0",
                    "libc": "glibc 2.36", "compiler": "gcc 12", "host": "fixture", "caches": {}},
        "config": {"routines": [], "sizes": [65536 >> k for k in range(14)], "total": TOTAL,
                   "buffer": 65536, "cache": "flush", "align": {"src": 0, "dst": 0},
                   "repeat": 5, "format": "json", "output": None, "cpu": -1, "kernel": False},
        "results": results,
    }


CALLS = 4096
MIXES = {"memcpy_fleet": 140, "memmove_fleet": 600}  # mean bytes per call
WORKING_SETS = {"l1": 48 << 10, "l2": 2 << 20}


def replay_ns(mix, ws, routine):
    # a plausible time per call: a few ns plus the bytes, slower outside L1
    ns = (4 + MIXES[mix] / 32) * (1.6 if ws == "l2" else 1.0)
    return ns * (1 / 0.7 if routine == "slower" else 1.0)


def replay_document(samples_of):
    d = document(samples_of)
    d["config"].update(sizes=[], seed=42, distributions=list(MIXES),
                       working_sets=list(WORKING_SETS))
    d["results"] = []
    for routine in ("steady", "slower"):
        for mix, mean in MIXES.items():
            for ws, size in WORKING_SETS.items():
                d["results"].append({
                    "routine": routine, "space": "user", "distribution": mix,
                    "working_set": size, "working_set_name": ws, "calls": CALLS,
                    "mean_size": mean, "total": CALLS * mean,
                    **measured(samples_of(routine, replay_ns(mix, ws, routine) * CALLS * 1e-9))})
    return d


def a_samples(routine, t):
    return [t * (1 + j) for j in JITTER]


def b_samples(routine, t):
    a = a_samples(routine, t)
    return a[::-1] if routine == "steady" else [t / 0.9 for t in a]


def main():
    out = sys.argv[1]
    for name, doc in (("A.json", document(a_samples)), ("B.json", document(b_samples)),
                      ("RA.json", replay_document(a_samples)),
                      ("RB.json", replay_document(b_samples))):
        with open(f"{out}/{name}", "w") as f:
            json.dump(doc, f, indent=1)


main()
