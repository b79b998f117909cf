# SPDX-License-Identifier: MIT
"""Checks a file COPYPERF_RECORD wrote (fleetbench's three-line format).

  check_mix.py wellformed FILE        three well-formed lines, each adding up to 1
  check_mix.py known FILE             exactly the mix tests/preload/mix.c makes
  check_mix.py calls FILE SIZE:N ...  only these sizes, N calls each, no overlap

Prints what differs and exits 1, or exits 0 silently.
"""
import sys

ALIGNS = (1, 2, 4, 8, 16, 32, 64)
EXACT_LARGE = 512  # distinct sizes above 4096 a thread keeps exactly (lib/record.c)


def parse(path):
    """The three lines as lists of (int value, float probability, text), or raises ValueError."""
    with open(path, encoding="ascii") as f:
        text = f.read()
    if not text.endswith("\n"):
        raise ValueError("no newline at the end")
    lines = text[:-1].split("\n")
    if len(lines) != 3:
        raise ValueError(f"{len(lines)} lines, not 3")
    parsed = []
    for number, line in enumerate(lines, 1):
        entries = []
        for entry in line.split(","):
            value, sep, p = entry.partition(":")
            if not sep or not value.isdigit() or not p:
                raise ValueError(f"line {number}: '{entry}' is not value:probability")
            entries.append((int(value), float(p), p))
        parsed.append(entries)
    return parsed


def well_formed(lines):
    """What is wrong with the lines' shape, whatever the mix: a list of reasons."""
    problems = []
    sizes, overlap, aligns = lines
    for number, entries in enumerate(lines, 1):
        total = sum(p for _, p, _ in entries)
        if abs(total - 1) > 1e-6:
            problems.append(f"line {number} adds up to {total}")
        if any(not 0 <= p <= 1 for _, p, _ in entries):
            problems.append(f"line {number} has a probability outside [0, 1]")
        values = [v for v, _, _ in entries]
        if values != sorted(set(values)):
            problems.append(f"line {number}'s values are not ascending, each once")
        if number != 2 and any(p == 0 for _, p, _ in entries):
            problems.append(f"line {number} lists a zero probability")
        if any(len(t.replace("0.", "").lstrip("0")) > 9 for _, _, t in entries):
            problems.append(f"line {number} has more than 9 significant digits")
    if [v for v, _, _ in overlap] != [0, 1]:
        problems.append("line 2 is not 0:p,1:q")
    if any(v not in ALIGNS for v, _, _ in aligns):
        problems.append("line 3 has an alignment other than 1, 2, 4 ... 64")
    return problems


def bucket(n):
    """Where a size past a thread's exact ones is written: the middle of its eighth of an octave."""
    shift = n.bit_length() - 4
    return ((n >> shift) << shift) + (1 << (shift - 1))


def alignment(offset):
    """Offsets are from 4096-aligned buffers: the largest power of two dividing it, at most 64."""
    return 64 if offset % 64 == 0 else offset & -offset


def known_mix():
    """mix.c's calls as (size, count, dst offset, src offset, same buffer)."""
    calls = []
    for _ in range(4):  # each worker
        calls += [(7, 125, 1, 3, False), (7, 125, 1, 5, False)]
        calls += [(100, 250, 64, 128 + 64 * k, False) for k in range(3)]
    large = [5000 + 37 * i for i in range(600)]  # worker 0, in this order
    for n in large[:EXACT_LARGE]:
        calls.append((n, 1, 0, 0, False))
    for n in large[EXACT_LARGE:]:
        calls.append((bucket(n), 1, 0, 0, False))
    calls += [(4096, 5, 0, 0, False), (4097, 5, 0, 0, False)]  # worker 1
    calls.append((5000, 3, 0, 0, False))  # worker 2
    calls.append((27648, 10, 0, 0, False))  # worker 3
    calls.append((11, 100, 2, 6, False))  # the thread still running at exit
    calls += [  # the main thread
        (32, 10, 8, 0, True),
        (16, 5, 1040, 1024, True),
        (8, 3, 2050, 2050, True),
        (0, 2, 4, 32, True),
        (48, 4, 4112, 8224, True),
        (7, 6, 12352, 16512, True),
        (20, 2, 20736, 20740, True),
        (100, 1, 25096, 29696, True),
    ]
    return calls


def expected(calls):
    """The three lines' counts: {size: n}, {0: n, 1: n}, {alignment: pointers}."""
    sizes, overlap, aligns = {}, {0: 0, 1: 0}, {}
    for size, count, d, s, same in calls:
        sizes[size] = sizes.get(size, 0) + count
        meets = same and size > 0 and d < s + size and s < d + size
        overlap[int(meets)] += count
        for offset in (d, s):
            aligns[alignment(offset)] = aligns.get(alignment(offset), 0) + count
    return sizes, overlap, aligns


def compare(lines, counts):
    """Each line's probabilities against count / total, to the 9 digits written."""
    problems = []
    for number, (entries, want) in enumerate(zip(lines, counts), 1):
        total = sum(want.values())
        got = {v: p for v, p, _ in entries}
        keys = set(want) if number == 2 else {v for v, n in want.items() if n}
        if set(got) != keys:
            problems.append(f"line {number}: values {sorted(set(got) ^ keys)[:10]} differ")
            continue
        for v in sorted(keys):
            p = want[v] / total
            if abs(got[v] - p) > 6e-9 * p:
                problems.append(f"line {number}: {v}:{got[v]}, expected {p:.9g}")
    return problems


def main(argv):
    if len(argv) < 3 or argv[1] not in ("wellformed", "known", "calls"):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        lines = parse(argv[2])
    except (OSError, ValueError) as e:
        print(f"{argv[2]}: {e}")
        return 1
    problems = well_formed(lines)
    if argv[1] == "known":
        problems += compare(lines, expected(known_mix()))
    elif argv[1] == "calls":
        sizes = {int(a): int(b) for a, b in (w.split(":") for w in argv[3:])}
        problems += compare(lines[:2], ({**sizes}, {0: sum(sizes.values()), 1: 0}))
    for p in problems[:20]:
        print(f"{argv[2]}: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
