#!/usr/bin/env python3
"""make bench-apps' table and verdicts (scripts/bench-apps/run.py's render), on made-up results:
each case prints "ok NAME" or "FAIL NAME: why"; exit status 1 when one failed."""

import importlib.util
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "bench_apps_run", os.path.join(HERE, "..", "..", "scripts", "bench-apps", "run.py"))
run = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run)

failed = 0


def check(name, cond, why):
    global failed
    if cond:
        print(f"ok {name}")
    else:
        failed += 1
        print(f"FAIL {name}: {why}")


def prog(ratio, verdict, lo, hi, share=None, with_share=None, why_not=None):
    p = {"status": "ok", "check": "identical", "ratio": ratio, "verdict": verdict, "p": 0.01,
         "pair_ratios": {"min": lo, "max": hi}, "without": {"wall": {"median": 2.5}},
         "with": {"wall": {"median": 2.5 / ratio}}}
    if why_not is not None:
        p["copy_share"] = {"not_measured": why_not}
    elif share is not None:
        p["copy_share"] = {"event": "cpu-clock", "without": share, "with": with_share}
    return p


def row(name, p, control=False):
    return (name, "a workload", control, p, run.failure(p, ""))


def line(out, start):
    found = [l for l in out if l.startswith(start)]
    return found[0] if found else ""


control = row("ctl", prog(1.0, "no difference", 0.95, 1.05), control=True)

# Three faster, shares known: both verdicts met, the ceiling their 1 / (1 - s).
out = run.render([row("a", prog(1.05, "faster", 1.01, 1.09, 0.2, 0.18)),
                  row("b", prog(1.04, "faster", 1.02, 1.06, 0.1, 0.09)),
                  row("c", prog(1.06, "faster", 1.03, 1.08, 0.5, 0.45)), control], False)
want = math.exp((math.log(1 / 0.8) + math.log(1 / 0.9) + math.log(1 / 0.5)) / 3)
check("gains met", line(out, "gains:").endswith("met (3 faster: a, b, c)"), line(out, "gains:"))
check("no program slower met", ": met" in line(out, "no program slower"),
      line(out, "no program slower"))
check("the ceiling is the geometric mean of 1 / (1 - s)",
      f"geometric mean {want:.3f}x" in line(out, "were the copies free"),
      f"want {want:.3f}: {line(out, 'were the copies free')}")
check("the shares in the row", any(l.startswith("a ") and l.endswith("20.0% / 18.0%") for l in out),
      "\n".join(out))
check("the control's row has no share", any(l.startswith("ctl (A/A)") and "%" not in l for l in out),
      "\n".join(out))

# One slower by the test, outside the control's range: named, NOT MET; gains NOT MET.
out = run.render([row("a", prog(1.05, "faster", 1.01, 1.09, 0.2, 0.18)),
                  row("slow", prog(0.93, "slower", 0.90, 0.96, 0.3, 0.32)), control], False)
check("a slower program is named", "NOT MET (slower: slow 0.930)" in line(out, "no program slower"),
      line(out, "no program slower"))
check("two programs are not three", "NOT MET (1 faster: a)" in line(out, "gains:"),
      line(out, "gains:"))

# A tie: under 1.00 but no difference and within the control's range.
out = run.render([row("tie", prog(0.98, "no difference", 0.94, 1.03, 0.3, 0.3)), control], False)
check("a tie within the control passes", ": met" in line(out, "no program slower"),
      line(out, "no program slower"))

# Under 1.00, no difference, but below the control's range: slower.
out = run.render([row("low", prog(0.94, "no difference", 0.90, 0.99, 0.3, 0.3)), control], False)
check("below the control's range is slower", "slower: low 0.940" in line(out, "no program slower"),
      line(out, "no program slower"))

# No perf: the column shows '-', the ceiling says why it is not known.
out = run.render([row("a", prog(1.05, "faster", 1.01, 1.09, why_not="no perf here")), control],
                 False)
check("no perf: the ceiling not known, and why",
      line(out, "were the copies free") == "were the copies free: not known (no perf here)",
      line(out, "were the copies free"))
check("no perf: the column shows -", any(l.startswith("a ") and l.endswith(" -") for l in out),
      "\n".join(out))

# A program that failed leaves no program slower NOT MET and has no share.
bad = prog(1.0, "no difference", 0.9, 1.1, 0.2, 0.2)
bad["check"] = "differ"
out = run.render([row("a", prog(1.05, "faster", 1.01, 1.09, 0.2, 0.18)), row("broken", bad), control],
                 False)
check("a failed program: NOT MET", "NOT MET" in line(out, "no program slower"),
      line(out, "no program slower"))
check("a failed program: its row says FAILED and why",
      any(l.startswith("broken") and "FAILED" in l and "outputs differ" in l for l in out),
      "\n".join(out))

sys.exit(1 if failed else 0)
