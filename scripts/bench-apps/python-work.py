"""make bench-apps's python3 workload: what Python programs do with text and bytes.

    python3 python-work.py TEXT

Each step copies strings and buffers through the C library's memcpy inside the interpreter:
bytes joined and sliced, byte arrays grown, objects pickled and unpickled, text split and joined.
It prints a digest of each step's result, the same on every run and with any correct memcpy.
"""

import gc
import hashlib
import pickle
import sys

ROUNDS = 4


def digest(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
    return h.hexdigest()[:16]


def bytes_work(data):
    """Slices of every size from a few bytes to 64 KiB, joined again; byte arrays grown."""
    n = len(data)
    sizes = (7, 24, 64, 200, 1000, 4096, 20000, 65536)
    total = 0
    h = hashlib.sha256()
    for r in range(ROUNDS):
        for size in sizes:
            step = max(size // 2, 4096)
            pieces = [data[i:i + size] for i in range(r, n - size, step)]
            joined = b"".join(pieces)
            total += len(joined)
            h.update(joined[-size:])
        grown = bytearray()
        for i in range(0, n, 3000):
            grown += data[i:i + 1500]
        chunks = bytes(grown).split(b"\n")
        total += len(b"\n".join(chunks[::-1]))
        h.update(grown[:4096])
    return total, h.hexdigest()[:16]


def pickle_work(text):
    """Records of strings and bytes pickled and unpickled, in one piece and in small objects."""
    paras = text.split("\n\n")
    records = [{"id": i, "title": p[:40], "body": p, "raw": p.encode(), "words": p.split()[:12]}
               for i, p in enumerate(paras[:20000])]
    out = []
    for r in range(ROUNDS):
        blob = pickle.dumps(records, protocol=5)
        back = pickle.loads(blob)
        if back != records:
            raise SystemExit("python-work: a pickle round trip changed the records")
        small = [pickle.loads(pickle.dumps(rec, protocol=4)) for rec in records[r::4]]
        out.append((len(blob), sum(len(rec["raw"]) for rec in small)))
    return out, digest(blob)


def str_work(text):
    """Text split into lines and words, rejoined, reformatted."""
    results = []
    text = text[:8 << 20]
    for r in range(ROUNDS):
        lines = text.split("\n")
        words = text.split()
        joined = " ".join(words)
        rewrapped = "\n".join(" ".join(words[i:i + 12]) for i in range(r, len(words), 12))
        parts = joined.split(" the ")
        line_lens = sum(len(l) for l in lines)
        tagged = "".join(f"<{w}>" for w in words[: len(words) // 3])
        results.append((len(lines), len(words), len(joined), len(rewrapped), len(parts),
                        line_lens, len(tagged)))
    return results, digest(rewrapped, tagged)


def main():
    if len(sys.argv) != 2:
        print("usage: python-work.py TEXT", file=sys.stderr)
        sys.exit(2)
    try:
        with open(sys.argv[1], "rb") as f:
            data = f.read()
    except OSError as e:
        print(f"python-work: {sys.argv[1]}: {e.strerror}", file=sys.stderr)
        sys.exit(2)
    text = data.decode("ascii")
    # Nothing here makes a reference cycle: the collector would only walk the millions of
    # objects again and again, time that is neither the program's work nor its copies.
    gc.disable()
    print("bytes", *bytes_work(data))
    print("pickle", *pickle_work(text))
    print("str", *str_work(text))


if __name__ == "__main__":
    main()
