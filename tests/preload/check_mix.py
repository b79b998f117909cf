# SPDX-License-Identifier: MIT
"""Checks the files COPYPERF_RECORD wrote (fleetbench's three-line format and "# calls N").

  check_mix.py wellformed FILE                  three well-formed lines and "# calls N"; a
                                                FILE.memcpy with no overlapping call
  check_mix.py known BASE                       BASE.memcpy and BASE.memmove hold exactly the
                                                mix tests/preload/mix.c makes, each its family's
  check_mix.py calls FILE SIZE:N ... [overlap=K]  only these sizes, N calls each, K of them
                                                overlapping (none without overlap=)

Prints what differs and exits 1, or exits 0 silently.
"""
import sys

ALIGNS = (1, 2, 4, 8, 16, 32, 64)
EXACT_LARGE = 512  # distinct sizes above 4096 a thread keeps exactly, per family (lib/record.c)
FAMILIES = ("memcpy", "memmove")


def parse(path):
    """The three lines as lists of (int value, float probability, text), and the calls line's N;
    or raises ValueError."""
    with open(path, encoding="ascii") as f:
        text = f.read()
    if not text.endswith("\n"):
        raise ValueError("no newline at the end")
    lines = text[:-1].split("\n")
    if len(lines) != 4:
        raise ValueError(f"{len(lines)} lines, not 4")
    words = lines[3].split(" ")
    if len(words) != 3 or words[:2] != ["#", "calls"] or not words[2].isdigit():
        raise ValueError(f"line 4: '{lines[3]}' is not '# calls N'")
    parsed = []
    for number, line in enumerate(lines[:3], 1):
        entries = []
        for entry in line.split(","):
            value, sep, p = entry.partition(":")
            if not sep or not value.isdigit() or not p:
                raise ValueError(f"line {number}: '{entry}' is not value:probability")
            entries.append((int(value), float(p), p))
        parsed.append(entries)
    return parsed, int(words[2])


def well_formed(lines, calls):
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
    if calls < 1:
        problems.append("'# calls 0': a file with no call")
    # Each size's and each overlap's probability times the calls is a whole number of calls.
    for number, entries in enumerate(lines[:2], 1):
        for v, p, _ in entries:
            n = p * calls
            if abs(n - round(n)) > max(1e-6, 6e-9 * n):
                problems.append(f"line {number}: {v}:{p} is {n} of {calls} calls, not a whole number")
                break
    return problems


def bucket(n):
    """Where a size past a thread's exact ones is written: the middle of its eighth of an octave."""
    shift = n.bit_length() - 4
    return ((n >> shift) << shift) + (1 << (shift - 1))


def alignment(offset):
    """Offsets are from 4096-aligned buffers: the largest power of two dividing it, at most 64."""
    return 64 if offset % 64 == 0 else offset & -offset


def known_mix():
    """mix.c's calls as (size, count, dst offset, src offset, same buffer, family called)."""
    calls = []
    for _ in range(4):  # each worker
        calls += [(7, 125, 1, 3, False, "memcpy"), (7, 125, 1, 5, False, "memcpy")]
        calls += [(100, 250, 64, 128 + 64 * k, False, "memcpy") for k in range(3)]
    large = [5000 + 37 * i for i in range(600)]  # worker 0, in this order
    for n in large[:EXACT_LARGE]:
        calls.append((n, 1, 0, 0, False, "memcpy"))
    for n in large[EXACT_LARGE:]:
        calls.append((bucket(n), 1, 0, 0, False, "memcpy"))
    calls += [(4096, 5, 0, 0, False, "memcpy"), (4097, 5, 0, 0, False, "memcpy")]  # worker 1
    calls.append((5000, 3, 0, 0, False, "memcpy"))  # worker 2
    calls.append((27648, 10, 0, 0, False, "memcpy"))  # worker 3
    calls.append((11, 100, 2, 6, False, "memcpy"))  # the thread still running at exit
    same = 28672  # SAME in mix.c
    calls += [  # the main thread
        (32, 10, 8, 0, True, "memmove"),
        (16, 5, 1040, 1024, True, "memmove"),
        (8, 3, 2050, 2050, True, "memmove"),
        (0, 2, 4, 32, True, "memcpy"),
        (48, 4, 4112, 8224, True, "memcpy"),  # mempcpy
        (7, 6, 12352, 16512, True, "memcpy"),  # __memcpy_chk
        (20, 2, 20736, 20740, True, "memmove"),  # __memmove_chk
        (100, 1, 25096, 29696, True, "memcpy"),  # __mempcpy_chk
        (24, 3, same + 16, same + 16, True, "memcpy"),  # overlapping: memmove's file
        (32, 2, same + 8, same, True, "memcpy"),  # mempcpy, overlapping
        (16, 1, same + 64, same + 72, True, "memcpy"),  # __memcpy_chk, overlapping
    ]
    return calls


def overlaps(size, d, s, same):
    return same and size > 0 and d < s + size and s < d + size


def expected(calls, family):
    """The three lines' counts of the file of family: {size: n}, {0: n, 1: n}, {alignment:
    pointers}.  A memcpy-family call that overlaps is in memmove's file."""
    sizes, overlap, aligns = {}, {0: 0, 1: 0}, {}
    for size, count, d, s, same, called in calls:
        meets = overlaps(size, d, s, same)
        if ("memmove" if meets else called) != family:
            continue
        sizes[size] = sizes.get(size, 0) + count
        overlap[int(meets)] += count
        for offset in (d, s):
            aligns[alignment(offset)] = aligns.get(alignment(offset), 0) + count
    return sizes, overlap, aligns


def compare(lines, calls, counts):
    """Each line's probabilities against count / total, to the 9 digits written, and the sizes
    line times the calls line against the counts themselves."""
    problems = []
    if calls != sum(counts[0].values()):
        problems.append(f"'# calls {calls}', expected {sum(counts[0].values())}")
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
            if number < 3 and round(got[v] * calls) != want[v]:
                problems.append(f"line {number}: {v}:{got[v]} is {got[v] * calls} of {calls} calls, "
                                f"expected {want[v]}")
    return problems


def check(path, how):
    """The problems of the file at path: its shape, then how(lines, calls)'s.  A memcpy file
    never overlaps: the recorder counts an overlapping memcpy-family call with memmove's."""
    try:
        lines, calls = parse(path)
    except (OSError, ValueError) as e:
        return [str(e)]
    problems = well_formed(lines, calls)
    if path.endswith(".memcpy") and any(v == 1 and p > 0 for v, p, _ in lines[1]):
        problems.append("a memcpy file with overlapping calls")
    return problems + how(lines, calls)


def main(argv):
    if len(argv) < 3 or argv[1] not in ("wellformed", "known", "calls"):
        print(__doc__, file=sys.stderr)
        return 2
    problems = []
    if argv[1] == "wellformed":
        problems = [(argv[2], p) for p in check(argv[2], lambda lines, calls: [])]
    elif argv[1] == "known":
        for family in FAMILIES:
            path = f"{argv[2]}.{family}"
            want = expected(known_mix(), family)
            problems += [(path, p) for p in check(path, lambda lines, calls: compare(lines, calls, want))]
    else:
        args = argv[3:]
        overlap = sum(int(a.partition("=")[2]) for a in args if a.startswith("overlap="))
        sizes = {int(a): int(b) for a, b in (w.split(":") for w in args if "=" not in w)}
        want = ({**sizes}, {0: sum(sizes.values()) - overlap, 1: overlap})
        problems = [(argv[2], p) for p in check(argv[2], lambda lines, calls: compare(lines[:2], calls, want))]
    for path, p in problems[:20]:
        print(f"{path}: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
