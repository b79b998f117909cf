#!/usr/bin/env python3
"""Makes the inputs of make bench-apps's workloads, once, in the cache directory given.

    inputs.py DIR

DIR/text.txt is English-like text drawn with fixed seeds from the word list of Debian's
wamerican package: word frequencies follow Zipf's law as in real prose, words have favourite
successors and phrases recur, so that the compressors find matches as they do in real text.
Beside it: the same text compressed by xz, zstd, gzip and lz4 (each with its own checksum of
the content, which the decompressor verifies), and a CSV of rows for sqlite3.

DIR/stamp names this generator's version (a hash of this file and of the word list): when it
matches, nothing is made again.  Everything is written into a directory of its own and renamed
into place, under a lock, so that two runs at once and a run cut short leave no half-made input.
"""

import csv
import fcntl
import hashlib
import os
import random
import shutil
import subprocess
import sys

WORDS = "/usr/share/dict/words"
TEXT_MIB = 24
SQL_ROWS = 160000


def fail(msg):
    print(f"bench-apps inputs: {msg}", file=sys.stderr)
    sys.exit(2)


def version():
    h = hashlib.sha256()
    with open(__file__, "rb") as f:
        h.update(f.read())
    with open(WORDS, "rb") as f:
        h.update(f.read())
    return h.hexdigest()[:16]


def vocabulary():
    with open(WORDS, encoding="utf-8") as f:
        words = [w.strip() for w in f]
    # Plain lower-case words: proper nouns, possessives and single letters would make a text
    # no one writes.
    words = sorted({w for w in words if w.isascii() and w.isalpha() and w.islower()
                    and (len(w) > 1 or w in ("a", "i"))})
    if len(words) < 1000:
        fail(f"{WORDS}: too few words ({len(words)})")
    return words


class Prose:
    """Sentences of Zipf-distributed words: a word is often followed by one of a few words
    drawn for it once (as "of" by "the"), and some phrases come again later."""

    def __init__(self, seed, words):
        self.rng = random.Random(seed)
        words = list(words)
        self.rng.shuffle(words)
        # Short words are the frequent ones in real text: rank them mostly by length.
        words.sort(key=lambda w: len(w) + 4 * self.rng.random())
        self.words = words
        cum, total = [], 0.0
        for rank in range(len(words)):
            total += 1.0 / (rank + 2.7)
            cum.append(total)
        self.cum = cum
        self.successors = {}
        self.phrases = []

    def word(self, prev):
        rng = self.rng
        if prev is not None and rng.random() < 0.6:
            following = self.successors.get(prev)
            if following is None:
                following = rng.choices(self.words, cum_weights=self.cum, k=4)
                self.successors[prev] = following
            return rng.choice(following)
        return rng.choices(self.words, cum_weights=self.cum)[0]

    def sentence(self):
        rng = self.rng
        n = rng.randint(4, 22)
        out = []
        prev = None
        while len(out) < n:
            if self.phrases and rng.random() < 0.2:
                out.extend(rng.choice(self.phrases))
            else:
                phrase = []
                for _ in range(rng.randint(2, 6)):
                    prev = self.word(prev)
                    phrase.append(prev)
                out.extend(phrase)
                if rng.random() < 0.1:
                    if len(self.phrases) < 4000:
                        self.phrases.append(phrase)
                    else:
                        self.phrases[rng.randrange(4000)] = phrase
            prev = out[-1]
        if len(out) > 6 and rng.random() < 0.3:
            out[rng.randrange(2, len(out) - 2)] += ","
        s = " ".join(out)
        return s[0].upper() + s[1:] + rng.choice(".....?!")

    def paragraph(self, width=72):
        text = " ".join(self.sentence() for _ in range(self.rng.randint(2, 8)))
        lines, line = [], ""
        for word in text.split(" "):
            if line and len(line) + 1 + len(word) > width:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
        return "\n".join(lines) + "\n\n"


def make_text(path, words):
    prose = Prose(1, words)
    limit = TEXT_MIB << 20
    size = 0
    with open(path, "w", encoding="ascii") as f:
        while size < limit:
            p = prose.paragraph()
            f.write(p)
            size += len(p)


def compress(src, argv, dst):
    with open(src, "rb") as fin, open(dst, "wb") as fout:
        subprocess.run(argv, stdin=fin, stdout=fout, check=True)


def make_rows(path, words):
    """Rows for sqlite3: an id, a category, a number, a word and a sentence or a paragraph."""
    prose = Prose(7, words)
    rng = random.Random(11)
    with open(path, "w", encoding="ascii", newline="") as f:
        w = csv.writer(f)
        for i in range(SQL_ROWS):
            body = prose.paragraph(100) if rng.random() < 0.2 else prose.sentence()
            w.writerow([i + 1, rng.randrange(64), rng.randrange(1 << 31),
                        rng.choice(words), body.strip()])


def main():
    if len(sys.argv) != 2:
        fail("usage: inputs.py DIR")
    root = sys.argv[1]
    if not os.path.isfile(WORDS):
        fail(f"{WORDS}: missing (install wamerican: scripts/bench-apps/install.sh)")
    for tool in ("xz", "zstd", "gzip", "lz4"):
        if shutil.which(tool) is None:
            fail(f"{tool}: not found (scripts/bench-apps/install.sh installs it)")
    os.makedirs(root, exist_ok=True)
    stamp = os.path.join(root, "stamp")
    want = version()
    with open(os.path.join(root, ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            with open(stamp) as f:
                if f.read().strip() == want:
                    return
        except FileNotFoundError:
            pass
        print(f"bench-apps: making the inputs in {root} (once)", file=sys.stderr)
        # No stamp while the files change: a run cut short leaves the inputs to be made again.
        try:
            os.unlink(stamp)
        except FileNotFoundError:
            pass
        tmp = os.path.join(root, ".new")
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        words = vocabulary()
        text = os.path.join(tmp, "text.txt")
        make_text(text, words)
        compress(text, ["xz", "-6", "-T1", "-c"], text + ".xz")
        compress(text, ["zstd", "-3", "-q", "-c"], text + ".zst")
        compress(text, ["gzip", "-6", "-n", "-c"], text + ".gz")
        compress(text, ["lz4", "-1", "-q", "-c"], text + ".lz4")
        make_rows(os.path.join(tmp, "rows.csv"), words)
        for name in os.listdir(tmp):
            os.replace(os.path.join(tmp, name), os.path.join(root, name))
        os.rmdir(tmp)
        with open(stamp + ".new", "w") as f:
            f.write(want + "\n")
        os.replace(stamp + ".new", stamp)


if __name__ == "__main__":
    main()
