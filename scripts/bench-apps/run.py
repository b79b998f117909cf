#!/usr/bin/env python3
"""make bench-apps: real programs from Debian's packages, without and with the preload shim.

    run.py --copyperf FILE [--shim FILE] --cache DIR --out DIR [--pairs N] [--apps NAME,...]

Each program's workload runs under `copyperf program --check`, which times it in pairs,
without and with LD_PRELOAD=<shim>, after one untimed warm-up of each side whose outputs must
be identical (without --shim, the shim copyperf program chooses: on x86-64 the AVX2 or SSE2
one where the library copies with that variant); its JSON is kept in the --out directory, NAME.json.  Then one program runs
against itself (--aa): the A/A control, whose spread from pair to pair is what a tie looks
like.  One table follows, with the geometric mean of the programs' ratios and two verdicts.

Exit status: 0 when every program ran and its outputs matched (whatever the verdicts say),
1 when one failed, 2 on bad options, 130 when interrupted.
"""

import argparse
import json
import math
import os
import platform
import signal
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# Debian's own interpreter: the python3 first in PATH may be another build.
PYTHON = "/usr/bin/python3"

# The program run against itself for the A/A control: one process pinned to a CPU as five of
# the seven are, spending both user and system time, allocating and touching new memory as it
# goes; the decompressors spend less system time, redis more and on two CPUs.
CONTROL = "sqlite3"

MIB = 24  # inputs.py's text, in MiB


def workloads(cache):
    """(name, what it does, pinned, argv): one per program, each run taking a few seconds."""
    text = os.path.join(cache, "text.txt")
    repeat = os.path.join(HERE, "repeat.sh")

    def decompress(tool, opts, files, runs):
        # files: the input named that many times in one run, runs: that run that many times
        what = f"{tool} {' '.join(opts)} of {files * MIB if files > 1 else MIB} MiB of text"
        return (tool, f"{what}, {runs} times", True,
                [repeat, str(runs), tool] + opts + [f"{text}.{ext(tool)}"] * files)

    return [
        ("redis", "SET and GET of 64 B, 1 KiB, 4 KiB values, 16 pipelined", False,
         [os.path.join(HERE, "redis.sh"), "190000"]),
        ("sqlite3", "bulk inserts, indexes, scans, sorts, VACUUM", True,
         [os.path.join(HERE, "sqlite.sh"), os.path.join(cache, "rows.csv")]),
        ("python3", "bytes sliced and joined, pickle, str split and joined", True,
         ["env", "PYTHONHASHSEED=0", PYTHON, os.path.join(HERE, "python-work.py"), text]),
        decompress("xz", ["-dc", "-T1"], 1, 10),
        decompress("zstd", ["-dc"], 4, 22),
        decompress("gzip", ["-dc"], 2, 10),
        decompress("lz4", ["-dc", "-m"], 4, 38),
    ]


def ext(tool):
    return {"xz": "xz", "zstd": "zst", "gzip": "gz", "lz4": "lz4"}[tool]


def fail(msg, status=2):
    print(f"bench-apps: {msg}", file=sys.stderr)
    sys.exit(status)


def machine_line():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        glibc = os.confstr("CS_GNU_LIBC_VERSION") or "glibc ?"
    except (ValueError, OSError):
        glibc = "glibc ?"
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    u = platform.uname()
    return (f"machine: {u.system} {u.release} {u.machine}, {model}, {os.cpu_count()} CPUs, "
            f"{glibc}; load: {load}")


class Interrupted(Exception):
    pass


stop = False


def on_signal(signum, frame):
    # copyperf, in the same process group, gets the signal too and ends at a pair's end.
    global stop
    stop = True


def default_shim(copyperf):
    """The shim copyperf program preloads when given none, from its JSON for a program that
    does nothing."""
    p = subprocess.run([copyperf, "program", "-q", "-n", "1", "-f", "json", "--", "true"],
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    try:
        shim = json.loads(p.stdout)["program"]["shim"]
    except (ValueError, KeyError, TypeError):
        shim = None
    if not isinstance(shim, str) or not shim:
        fail(f"{copyperf} program: no default shim ({p.stderr.strip() or 'none in its JSON'})", 1)
    return shim


def run_copyperf(args, name, argv, pinned, control):
    """Runs one copyperf program; returns its JSON's "program" object, or None and why not."""
    out = os.path.join(args.out, f"{name}{'-aa' if control else ''}.json")
    err = out[:-len(".json")] + ".err"  # copyperf's standard error, kept when not empty
    try:
        os.unlink(out)
    except FileNotFoundError:
        pass
    cmd = [args.copyperf, "program", "--check", "-n", str(args.pairs), "--shim", args.shim,
           "-f", "json", "-q", "-o", out]
    if pinned and os.cpu_count() >= 2:
        cmd += ["--cpu", "1"]
    if control:
        cmd.append("--aa")
    else:
        cmd.append("--counters")  # each side once more under perf record, where perf is
    cmd += ["--"] + argv
    with open(err, "w") as ferr:
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=ferr)
        status = p.wait()
    why = ""
    try:
        with open(err) as f:
            lines = [l.strip() for l in f if l.strip()]
        if lines:
            why = lines[-1]
        else:
            os.unlink(err)
    except OSError:
        pass
    try:
        with open(out) as f:
            prog = json.load(f)["program"]
    except (OSError, ValueError, KeyError, TypeError):
        prog = None
    if prog is None:
        return None, f"copyperf exited {status}" + (f": {why}" if why else "")
    if prog.get("interrupted"):
        raise Interrupted()
    if status not in (0, 1):
        return None, f"copyperf exited {status}" + (f": {why}" if why else "")
    return prog, why


def failure(prog, why):
    """Why a measured program failed, or "" when it did not."""
    if prog is None:
        return why or "not measured"
    reasons = []
    for side, label in (("without", "without the shim"), ("with", "with the shim")):
        st = (prog.get(side) or {}).get("exit_status", 0)
        if st:
            reasons.append(f"exit status {st} {label}")
    if prog.get("check") == "differ":
        reasons.append("outputs differ")
    if prog.get("status") != "ok" and not reasons:
        reasons.append(why or "failed")
    return ", ".join(reasons)


def plural(n, noun):
    return f"{n} {noun}{'' if n == 1 else 's'}"


def fmt(x, spec):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else format(x, spec)


def main():
    ap = argparse.ArgumentParser(prog="run.py", add_help=True)
    ap.add_argument("--copyperf", required=True)
    ap.add_argument("--shim")
    ap.add_argument("--cache", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--pairs", default=os.environ.get("PAIRS") or "9")
    ap.add_argument("--apps", default="")
    args = ap.parse_args()

    if not args.pairs.isdigit() or not 1 <= int(args.pairs) <= 1000:
        fail(f"PAIRS '{args.pairs}': not a whole number from 1 to 1000")
    args.pairs = int(args.pairs)
    for opt in ("copyperf", "shim"):
        path = getattr(args, opt)
        if path is None:
            continue
        if not os.path.isfile(path):
            fail(f"{path}: no such file (make builds it)")
        setattr(args, opt, os.path.abspath(path))
    all_names = [w[0] for w in workloads(args.cache)]
    chosen = [a for a in args.apps.replace(",", " ").split() if a]
    for a in chosen:
        if a not in all_names:
            fail(f"APPS '{a}': not one of {', '.join(all_names)}")
    probe = subprocess.run([args.copyperf, "program", "--help"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    if probe.returncode != 0:
        fail(f"{args.copyperf}: 'copyperf program' is not there (make builds it)", 1)
    if args.shim is None:
        args.shim = default_shim(args.copyperf)
    os.makedirs(args.out, exist_ok=True)
    # A file left by an earlier run would pass for this one's.
    for name in all_names:
        for suffix in (".json", ".err", "-aa.json", "-aa.err"):
            try:
                os.unlink(os.path.join(args.out, name + suffix))
            except FileNotFoundError:
                pass
    gen = subprocess.run([PYTHON, os.path.join(HERE, "inputs.py"), args.cache])
    if gen.returncode != 0:
        sys.exit(1)

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)

    lines = [machine_line(), f"shim: {args.shim}; {plural(args.pairs, 'pair')} a program, "
             "after a warm-up of each side"]
    print(*lines, sep="\n", flush=True)
    todo = [(w, False) for w in workloads(args.cache) if not chosen or w[0] in chosen]
    todo += [(w, True) for w in workloads(args.cache) if w[0] == CONTROL]
    rows = []
    interrupted = False
    for (name, what, pinned, argv), is_control in todo:
        if stop:
            interrupted = True
            break
        print(f"  {name}: {'the A/A control' if is_control else what}", file=sys.stderr,
              flush=True)
        try:
            prog, why = run_copyperf(args, name, argv, pinned, is_control)
        except Interrupted:
            interrupted = True
            break
        rows.append((name, what, is_control, prog, failure(prog, why)))

    table = render(rows, interrupted)
    print("\n".join(table), flush=True)
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write("\n".join(lines + table) + "\n")
    if interrupted:
        sys.exit(130)
    sys.exit(1 if any(r[4] for r in rows) else 0)


def copy_shares(prog):
    """The share of the program's samples in the copy routines, without and with the shim (None
    where perf did not measure it)."""
    shares = prog.get("copy_share") or {}
    return shares.get("without"), shares.get("with")


def share_cell(without, with_shim):
    if without is None and with_shim is None:
        return "-"
    return " / ".join("-" if x is None else f"{100 * x:.1f}%" for x in (without, with_shim))


def ceiling_line(measured):
    """The most any copy routine could give: a program spending the share s of its time in the
    copies without the shim would run 1 / (1 - s) times as fast were they free."""
    bounds, why = [], ""
    for name, _, _, prog, _ in measured:
        without, _ = copy_shares(prog)
        if not isinstance(without, (int, float)) or not 0 <= without < 1:
            why = ((prog.get("copy_share") or {}).get("not_measured")
                   or f"no share of its time in the copies for {name}")
            break
        bounds.append(1 / (1 - without))
    if why or not bounds:
        return f"were the copies free: not known ({why or 'no program measured'})"
    gm = math.exp(sum(math.log(b) for b in bounds) / len(bounds))
    return ("were the copies free (each program 1 / (1 - its share in copies without the shim)): "
            f"geometric mean {gm:.3f}x, the most any copy routine could give these programs")


def render(rows, interrupted):
    if not rows:
        return ["", "interrupted before a program was measured" if interrupted else "nothing run"]
    head = ("program", "what it does", "ratio", "per-pair range", "verdict (p)", "s/run", "check",
            "in copies")
    body = []
    for name, what, is_control, prog, failed in rows:
        label = f"{name} (A/A)" if is_control else name
        if is_control:
            what = "control: the program against itself, no shim"
        if prog is None or failed:
            body.append((label, what, "FAILED", "", failed, "", (prog or {}).get("check", ""), ""))
            continue
        pr = prog.get("pair_ratios") or {}
        wall = (prog.get("without") or {}).get("wall") or {}
        without, with_shim = copy_shares(prog)
        body.append((label, what, fmt(prog.get("ratio"), ".3f"),
                     f"{fmt(pr.get('min'), '.3f')}-{fmt(pr.get('max'), '.3f')}",
                     f"{prog.get('verdict', '-')} ({fmt(prog.get('p'), '.3g')})",
                     fmt(wall.get("median"), ".2f"), prog.get("check", "-"),
                     "" if is_control else share_cell(without, with_shim)))
    widths = [max(len(str(r[i])) for r in [head] + body) for i in range(len(head))]
    numeric = (2, 3, 5, 7)
    out = [""]
    for r in [head, tuple("-" * w for w in widths)] + body:
        out.append("  ".join(str(c).rjust(widths[i]) if i in numeric else str(c).ljust(widths[i])
                             for i, c in enumerate(r)).rstrip())
    out.append("ratio: median wall time without the shim over median wall time with it (above 1: "
               "faster with it); s/run: median wall time without it")
    out.append("in copies: the share of the program's perf samples in the copy routines, "
               "without the shim / with it (one more run of each side under perf record)")

    programs = [r for r in rows if not r[2]]
    measured = [r for r in programs if r[3] is not None and not r[4]]
    ratios = [r[3]["ratio"] for r in measured if isinstance(r[3].get("ratio"), (int, float))]
    ctl = [r for r in rows if r[2] and r[3] is not None and not r[4]]
    gm = math.exp(sum(math.log(x) for x in ratios) / len(ratios)) if ratios else None
    n_failed = len(programs) - len(measured)
    out.append("")
    out.append(f"geometric mean of the ratios ({plural(len(ratios), 'program')}, not the control): "
               f"{fmt(gm, '.3f')}x" + (f"; {n_failed} FAILED" if n_failed else ""))
    out.append(ceiling_line(measured))

    lo = hi = None
    if ctl and ctl[0][3].get("pair_ratios"):
        lo, hi = ctl[0][3]["pair_ratios"].get("min"), ctl[0][3]["pair_ratios"].get("max")
    slower = []
    for name, _, _, prog, _ in measured:
        ratio = prog.get("ratio")
        tie = (prog.get("verdict") == "no difference" and lo is not None and ratio is not None
               and lo <= ratio <= hi)
        if ratio is None or not (ratio >= 1.0 or tie):
            slower.append(f"{name} {fmt(ratio, '.3f')}")
    ok1 = not slower and not n_failed and not interrupted and bool(measured)
    faster = [r[0] for r in measured if r[3].get("verdict") == "faster"]
    ok2 = len(faster) >= 3 and gm is not None and gm >= 1.03 and not interrupted
    note1 = []
    if slower:
        note1.append("slower: " + ", ".join(slower))
    if lo is None:
        note1.append("no A/A control")
    if n_failed:
        note1.append(f"{n_failed} FAILED")
    out.append("no program slower: every ratio >= 1.00, or 'no difference' by the verdict and "
               "within the A/A control's per-pair range: " + ("met" if ok1 else "NOT MET")
               + (f" ({'; '.join(note1)})" if note1 else ""))
    out.append("gains: at least three programs 'faster' and geometric mean >= 1.03x: "
               + ("met" if ok2 else "NOT MET")
               + f" ({len(faster)} faster" + (f": {', '.join(faster)}" if faster else "") + ")")
    if interrupted:
        out.append("interrupted: the rows above are those measured before the signal")
    return out


if __name__ == "__main__":
    main()
