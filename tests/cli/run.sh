#!/bin/sh
# Command-line tests of copyperf: what a user types, and what a user must get back.
# usage: run.sh COPYPERF COPYPERF_WITH_BROKEN_ROUTINES
set -u
cp=$1
broken=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../tally.sh"

# usage_error DESCRIPTION EXPECTED-TEXT ARGS...: exit 2, one line on stderr naming the problem.
usage_error() {
	desc=$1 want=$2
	shift 2
	"$cp" "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$st" -ne 2 ]; then bad "$desc: exit $st, expected 2"; return; fi
	if [ "$lines" -ne 1 ]; then bad "$desc: $lines lines on stderr, expected 1"; return; fi
	if ! grep -q -- "$want" "$tmp/err"; then bad "$desc: stderr lacks '$want': $(cat "$tmp/err")"; return; fi
	if [ -s "$tmp/out" ]; then bad "$desc: printed results anyway"; return; fi
	ok
}

usage_error "unknown option" "unknown option '--bogus'" --bogus
usage_error "unknown routine lists the valid ones" "unknown routine 'nosuch' (valid: memcpy, memmove, bytes" -r nosuch
usage_error "chunk of 0" "--sizes: a chunk of 0 bytes" -s 0
usage_error "chunk larger than the buffer" "--sizes: chunk 131072 is larger than the buffer" -s 128K
usage_error "total smaller than the chunk" "--total: 1024 bytes is smaller than the chunk 4096" -s 4K -t 1K
usage_error "overflowing size" "--total: '99999999999999999999' is too large" -t 99999999999999999999
usage_error "overflowing suffix" "--buffer: '17179869184G' is too large" -b 17179869184G
usage_error "unwritable output" "--output: cannot write '$tmp/no/such/dir/r.json'" -o "$tmp/no/such/dir/r.json" -t 64K -s 64K
usage_error "bad cache mode" "--cache: unknown value 'tepid'" -c tepid
usage_error "bad format" "--format: unknown value 'xml'" -f xml
usage_error "bad alignment" "--align: offsets must be 0 to 4095" -a 0:5000
usage_error "no such CPU" "--cpu: cannot run on CPU 1000" --cpu 1000 -t 64K -s 64K

# A bad COPYPERF_* variable (x86-64's tuning): one warning naming it, then the machine's choice.
env_warning() { # VAR=VALUE WANTED-TEXT
	env "$1" "$cp" --list >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ "$st" -eq 0 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qF -- "copyperf: $1: $2" "$tmp/err" &&
		grep -q '^# copyperf_memcpy/copyperf_memmove: x86-64 ' "$tmp/out"; then
		ok
	else
		bad "$1: exit $st, stderr: $(cat "$tmp/err")"
	fi
}
if [ "$(uname -m)" = x86_64 ]; then
	env_warning COPYPERF_ISA=avx1024 "not one of generic, sse2, avx2, avx512; ignored"
	env_warning COPYPERF_NT_THRESHOLD=12Q "not a size"
	env_warning COPYPERF_REP_MOVSB_MAX=99999999999999999999 "not a size"
	COPYPERF_ISA=sse2 "$cp" --list 2>"$tmp/err" | grep -q 'x86-64 sse2 variant' && [ ! -s "$tmp/err" ] &&
		ok || bad "COPYPERF_ISA=sse2 is not the variant in force, or warned: $(cat "$tmp/err")"
fi

# --help, --version, --list
"$cp" --help | grep -q -- "--routines LIST" && ok || bad "--help lacks the options"
"$cp" --version | grep -Eq '^copyperf [0-9]+\.[0-9]+\.[0-9]+$' && ok || bad "--version"
"$cp" --list >"$tmp/list"
for r in memcpy memmove bytes words copyperf_memcpy copyperf_memmove; do
	grep -q "^$r " "$tmp/list" && ok || bad "--list lacks $r"
done

# The seed format, for memcpy: the header, then 14 lines in the 2008 post's shape.
"$cp" -q -r memcpy -f seed -t 1M -n 1 >"$tmp/seed"
st=$?
[ "$st" -eq 0 ] && ok || bad "seed run exit $st"
[ "$(head -n 1 "$tmp/seed")" = "memcpy()" ] && ok || bad "seed header: $(head -n 1 "$tmp/seed")"
n=$(grep -Ec '^chunk: [ 0-9]{6} \[B\] \| transfer: [ .0-9]{8} \[MB/s\] \| time: [0-9]+\.[0-9]{6} \[s\] \| size:    1\.000 \[MB\]$' "$tmp/seed")
[ "$n" -eq 14 ] && ok || bad "seed lines: $n of 14 match the format"
sizes=$(sed -n 's/^chunk: *\([0-9]*\) .*/\1/p' "$tmp/seed" | tr '\n' ' ')
[ "$sizes" = "65536 32768 16384 8192 4096 2048 1024 512 256 128 64 32 16 8 " ] && ok || bad "seed sizes: $sizes"

# JSON: a real parser accepts it, it has the documented shape, and every copy was verified.
"$cp" -q -f json -t 256K -n 3 -r memcpy,bytes,copyperf_memcpy -o "$tmp/r.json"
st=$?
[ "$st" -eq 0 ] && ok || bad "json run exit $st"
python3 -m json.tool "$tmp/r.json" >/dev/null && ok || bad "json does not parse"
python3 - "$tmp/r.json" <<'PY' && ok || bad "json shape"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["tool"] == "copyperf", d["tool"]
for k in ("cpu", "arch", "kernel", "libc", "compiler", "caches"):
    assert k in d["machine"], k
c = d["config"]
assert c["repeat"] == 3 and c["total"] == 262144 and c["cache"] == "flush", c
assert c["routines"] == ["memcpy", "bytes", "copyperf_memcpy"], c["routines"]
res = d["results"]
assert len(res) == 3 * 14, len(res)
for r in res:
    assert r["verified"] is True, r
    assert r["space"] == "user" and r["repeats"] == 3 and len(r["samples"]) == 3, r
    assert r["total"] == 262144 // r["chunk"] * r["chunk"], r
    s, b = r["seconds"], r["bytes_per_s"]
    assert 0 < s["min"] <= s["median"] <= s["max"], s
    assert abs(b["median"] * s["median"] - r["total"]) < 1e-6 * r["total"], (b, s)
    assert min(r["samples"]) == s["min"] and max(r["samples"]) == s["max"], r
PY

# CSV: the same columns, one row per point.
"$cp" -q -f csv -t 64K -n 2 -r memcpy,words >"$tmp/r.csv"
head -n 1 "$tmp/r.csv" | grep -q '^routine,space,chunk,total,repeats,seconds_median,seconds_min,seconds_max,bytes_per_s_median,bytes_per_s_min,bytes_per_s_max,verified,samples' && ok || bad "csv header"
[ "$(grep -c ',true,' "$tmp/r.csv")" -eq 28 ] && ok || bad "csv rows"

# Every cache mode and an odd alignment run and verify.
for mode in flush flush-timed hot cold; do
	"$cp" -q -c "$mode" -a 3:61 -t 256K -n 1 -s 64K,100,8 -r memcpy,copyperf_memcpy >"$tmp/t" &&
		[ "$(grep -c ' yes$' "$tmp/t")" -eq 6 ] && ok || bad "cache $mode: $(cat "$tmp/t")"
done
# The table states its unit.
grep -q 'MB/s: 2^20 bytes per second' "$tmp/t" && ok || bad "table header lacks the unit"

# Verification catches wrong copies: FAILED with the offset, no speed, exit 1.
"$broken" -q -r memcpy,broken-short,broken-overrun -s 4K,64,8 -t 64K -n 2 >"$tmp/b" 2>"$tmp/berr"
st=$?
[ "$st" -eq 1 ] && ok || bad "broken routines: exit $st, expected 1"
grep -Eq '^broken-short +4096  FAILED: broken-short: wrong byte at offset 4095' "$tmp/b" && ok || bad "short copy not caught: $(cat "$tmp/b")"
grep -Eq '^broken-short +8 .* yes$' "$tmp/b" && ok || bad "short copy of 8 B (which it does right) not verified"
[ "$(grep -c '^broken-overrun .*FAILED: broken-overrun: wrote past the copied range' "$tmp/b")" -eq 3 ] && ok || bad "overrun not caught: $(cat "$tmp/b")"
[ "$(grep -c '^memcpy .* yes$' "$tmp/b")" -eq 3 ] && ok || bad "memcpy beside broken routines"
grep -q 'broken-short FAILED at chunk 4096' "$tmp/berr" && ok || bad "stderr does not name the failure"
"$broken" -q -f json -r broken-short -s 4K -t 64K -n 1 -o "$tmp/b.json" 2>/dev/null
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; assert r["verified"] is False and "bytes_per_s" not in r and "4095" in r["error"], r' "$tmp/b.json" && ok || bad "json of a FAILED point"

tally cli
