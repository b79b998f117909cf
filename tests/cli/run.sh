#!/bin/sh
# Command-line tests of copyperf: what a user types, and what a user must get back.
# usage: run.sh COPYPERF COPYPERF_WITH_BROKEN_ROUTINES SHARED_ROUTINES_SO [FAIL_ALLOC_SHIM]
set -u
cp=$1
broken=$2
shared=$3
fail_alloc=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../tally.sh"
. "$(dirname "$0")/../disassembly.sh"

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
usage_error "bad alignment" "--align: '0:5000': offsets must be 0 to 4095" -a 0:5000
usage_error "an alignment with a plus sign" "--align: '+1:0' is not S:D" -a +1:0
usage_error "a count with a space" "--repeat: ' 1' is not a whole number" -n ' 1'
usage_error "a negative size names itself" "--sizes: '-1' is not a size or a range" -s -1
usage_error "half a range names the range" "--sizes: '8-' is not a size or a range" -s 8-
# Each point once: a name twice, or two names for one mix or working set, would measure it twice.
usage_error "a routine twice" "--routines: 'memcpy' is given twice" -r memcpy,memcpy
usage_error "a size twice" "--sizes: 8 is given twice in '8-16,8'" -s 8-16,8
usage_error "a mix twice under two names" "--distribution: memcpy_fleet is given twice" -d fleet,memcpy_fleet
usage_error "a working set twice in bytes" "--working-set: '4K' and '4096' are both 4096 bytes here" -d fleet -w 4K,4096
usage_error "--plot onto --output" "--plot: '$tmp/r.svg' is the --output file too" -o "$tmp/r.svg" --plot "$tmp/r.svg"
# The option at fault, even inside a cluster of short ones; a long one misused says how.
usage_error "an unknown letter after a value" "unknown option '-x'" -n 1 -xq
usage_error "an unknown letter inside a cluster" "unknown option '-Z'" -t 64K -qZr memcpy
usage_error "a value to an option that takes none" "option '--quiet' takes no value" --quiet=1
usage_error "an ambiguous abbreviation" "option '--c' is ambiguous" --c 1
usage_error "a missing value" "option '--sizes' needs a value" --sizes
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
	env_warning COPYPERF_ISA=avx1024 "not one of generic, sse2, avx2, avx512-branchless, avx512; ignored"
	env_warning COPYPERF_NT_THRESHOLD=12Q "not a size"
	env_warning COPYPERF_NT_STREAMS=3 "not 1, 2 or 4; ignored"
	env_warning COPYPERF_LOOP_VEC=16 "not 32 or 64; ignored"
	env_warning COPYPERF_REP_MOVSB_NEAR=5000 "more than 4096 (a distance within 4 KiB); ignored"
	env_warning COPYPERF_REP_MOVSB_MAX=99999999999999999999 "not a size"
	COPYPERF_ISA=sse2 "$cp" --list 2>"$tmp/err" | grep -q 'x86-64 sse2 variant' && [ ! -s "$tmp/err" ] &&
		ok || bad "COPYPERF_ISA=sse2 is not the variant in force, or warned: $(cat "$tmp/err")"
	# The environment's choice of non-temporal loop is the one in force, and said to come from there.
	line=$(COPYPERF_NT_STREAMS=2 "$cp" --list | grep -m1 '^# copyperf_memcpy/')
	case $line in
	*"), two streams, one per half (environment);"*) ok ;;
	*) bad "COPYPERF_NT_STREAMS=2 not in force: $line" ;;
	esac
	# The library's CPUID reading agrees with the kernel's flags, variant by variant.
	isas=$("$(dirname "$0")/../../scripts/cpu-isas.sh" x86_64)
	cpu=$("$cp" --list | sed -n 's/^# copyperf_memcpy\/.*(CPU: \([^)]*\)).*/\1/p')
	for isa in avx2 avx512; do
		case " $isas " in *" $isa "*) kernel=y ;; *) kernel=n ;; esac
		case " $cpu " in *" $isa "*) lib=y ;; *) lib=n ;; esac
		[ "$kernel" = "$lib" ] && ok || bad "$isa: the kernel's flags say $kernel, the library's CPU line '$cpu'"
	done
	case " $isas " in *" avx512 "*) avx512=y ;; *) avx512=n ;; esac
	if [ "$avx512" = y ]; then # the AVX-512 variant
		line=$(COPYPERF_LOOP_VEC=32 "$cp" --list | grep -m1 '^# copyperf_memcpy/')
		case $line in
		*"; vector loop: 32-byte loads (environment);"*) ok ;;
		*) bad "COPYPERF_LOOP_VEC=32 not in force: $line" ;;
		esac
		# The branchless variant only when asked for, with the AVX-512 variant's thresholds.
		"$cp" --list | grep -q '^# copyperf_memcpy/copyperf_memmove: x86-64 avx512 variant' &&
			ok || bad "the default is not the avx512 variant: $("$cp" --list | grep -m1 '^#')"
		b=$(COPYPERF_ISA=avx512-branchless COPYPERF_LOOP_VEC=32 "$cp" --list 2>"$tmp/err" | grep -m1 '^#')
		case $b in
		*" avx512-branchless variant "*"; vector loop: 32-byte loads (environment);"*)
			[ ! -s "$tmp/err" ] && ok || bad "COPYPERF_ISA=avx512-branchless warned: $(cat "$tmp/err")" ;;
		*) bad "COPYPERF_ISA=avx512-branchless not in force: $b" ;;
		esac
	fi
	# Each CPU's part of the LLC counts at most 64 MiB, so no machine (nor a guest told its
	# host's L3) gets a non-temporal threshold above half that for each CPU it may run on.
	nt=$(printf '%s\n' "$line" | sed -n 's/.*non-temporal from \([0-9]*\) B.*/\1/p')
	[ -n "$nt" ] && [ "$nt" -le $((33554432 * $(nproc))) ] && ok ||
		bad "non-temporal threshold '$nt' B: above 32 MiB a CPU, or not reported: $line"
	# The string copy's window ends where non-temporal stores begin, whatever the environment
	# asks; the step, asked for, is in force.
	line=$(COPYPERF_REP_MOVSB_MAX=1G COPYPERF_NT_THRESHOLD=8M COPYPERF_REP_MOVSB_STEP=16K \
		COPYPERF_REP_MOVSB_NEAR=64 "$cp" --list | grep -m1 '^# copyperf_memcpy/')
	case $line in
	*" below 8388608 B (environment), its first line by vectors from 16384 B (environment) but never"*) ok ;;
	*) bad "rep movsb window not cut at the non-temporal threshold, or step not in force: $line" ;;
	esac
	# Where there is a window, the distances it is never taken at are said; with none, not.
	case $line in
	*"rep movsb from "*" (environment) but never to a destination 1-63 B past the source modulo 4 KiB (environment)"[,\;]*) ok ;;
	*) bad "the string copy's aliasing rule not said: $line" ;;
	esac
	line=$(COPYPERF_REP_MOVSB_NEAR=0 "$cp" --list | grep -m1 '^# copyperf_memcpy/')
	case $line in
	*"never to a destination"*) bad "an aliasing rule said with none asked for: $line" ;;
	*) ok ;;
	esac
	line=$(COPYPERF_REP_MOVSB_MAX=0 "$cp" --list | grep -m1 '^# copyperf_memcpy/')
	case $line in
	*"never to a destination"*) bad "an aliasing rule said where no window is: $line" ;;
	*"rep movsb from "*" below 0 B (environment)"[,\;]*) ok ;;
	*) bad "no empty window said: $line" ;;
	esac
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

# A measurement that lasts about as long as reading the clock is said to be one, and a
# total cut to whole chunks is said in the header; a long enough one says nothing.
"$cp" -c hot -s 64,3000 -t 3100 -n 3 -r memcpy >"$tmp/short.out" 2>"$tmp/short.err"
st=$?
if [ "$st" -eq 0 ] && grep -q '^copyperf: note: [12] of 2 results took under [0-9]* ns a measurement, .* raise --total$' "$tmp/short.err" &&
	head -1 "$tmp/short.out" | grep -q ', whole chunks up to 3.0 KiB per point,'; then ok
else bad "a clock-bound measurement: exit $st, $(cat "$tmp/short.err") $(head -1 "$tmp/short.out")"; fi
# 64 MiB: milliseconds, long enough against a clock that costs microseconds (hpet, TCG).
"$cp" -s 64K -t 64M -n 1 -r memcpy >"$tmp/long.out" 2>"$tmp/long.err"
if [ ! -s "$tmp/long.err" ] && head -1 "$tmp/long.out" | grep -q ', 64 MiB per point,'; then ok
else bad "a long measurement: $(cat "$tmp/long.err") $(head -1 "$tmp/long.out")"; fi

# A routine name longer than the column widens it: every row's numbers under the header's.
"$cp" -q -c hot -s 64,4K -t 64K -n 1 -r memcpy,copyperf_generic_memmove >"$tmp/wide" 2>/dev/null
python3 - "$tmp/wide" <<'PY' && ok || bad "a long routine name breaks the table's columns: $(cat "$tmp/wide")"
import sys
lines = open(sys.argv[1]).read().splitlines()
head = next(l for l in lines if l.startswith("routine"))
end = head.index("chunk [B]") + len("chunk [B]")
rows = [l for l in lines if l.startswith(("memcpy ", "copyperf_generic_memmove "))]
assert len(rows) == 4 and all(l[end - 1].isdigit() and l[end] == " " for l in rows), rows
PY

# '-o -' is standard output, not a file named '-'.
cp_abs=$(cd "$(dirname "$cp")" && pwd)/$(basename "$cp")
(cd "$tmp" && "$cp_abs" -q -f json -s 4K -t 64K -n 1 -r memcpy -o - >"$tmp/dash.out")
st=$?
if [ "$st" -eq 0 ] && [ ! -e "$tmp/-" ] && python3 -m json.tool "$tmp/dash.out" >/dev/null; then ok
else bad "-o -: exit $st, file '-' $( [ -e "$tmp/-" ] && echo made || echo not made)"; fi

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
# -c cold: the buffers are what the walk spans (twice the LLC or more), said in the results, and
# a chunk up to them is taken.
"$cp" -q -c cold -t 2M -n 1 -s 1M -r memcpy -f json -o "$tmp/cold.json" &&
	python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['config']; assert c['buffer'] >= 2 << 20, c" "$tmp/cold.json" &&
	ok || bad "-c cold with a 1 MiB chunk: $(head -c 300 "$tmp/cold.json")"
# A signal stops even a measurement of a terabyte within a second or two: at a wrap of the walk,
# at the end of a pass of the calls, and on every thread.
for run in "-s 4K" "-d fleet -w 16K" "-s 4K -j 2"; do
	"$cp" -q -r memcpy -n 1 -t 1T $run 2>"$tmp/err" &
	pid=$!
	sleep 1
	kill -INT $pid
	( sleep 10; kill -KILL $pid 2>/dev/null ) &
	watchdog=$!
	wait $pid
	st=$?
	kill $watchdog 2>/dev/null
	[ $st = 130 ] && grep -q "stopped by SIGINT after 0 of" "$tmp/err" && ok ||
		bad "SIGINT in a 1 TiB measurement ($run): exit $st, $(cat "$tmp/err")"
done
# A closed standard error does not send the notes into -o's file (its number would be free);
# help, version and the list fail on a full device.
"$cp" -q -r memcpy,memmove -d memmove_0 -w 4K -t 1M -n 1 -f json -o "$tmp/closed.json" 2>&- &&
	python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/closed.json" && ok ||
	bad "stderr closed: the results file is not JSON: $(head -c 200 "$tmp/closed.json")"
for a in --help --version --list; do
	"$cp" $a >/dev/full 2>"$tmp/err"
	st=$?
	[ $st = 1 ] && grep -q "cannot write to standard output" "$tmp/err" && ok || bad "$a >/dev/full: exit $st"
done

# Verification catches wrong copies: FAILED with the offset, no speed, exit 1.
"$broken" -q -r memcpy,broken-short,broken-overrun -s 4K,64,8 -t 64K -n 2 >"$tmp/b" 2>"$tmp/berr"
st=$?
[ "$st" -eq 1 ] && ok || bad "broken routines: exit $st, expected 1"
grep -Eq '^broken-short +4096  FAILED: broken-short: wrong byte at offset 4095' "$tmp/b" && ok || bad "short copy not caught: $(cat "$tmp/b")"
grep -Eq '^broken-short +8 .* yes$' "$tmp/b" && ok || bad "short copy of 8 B (which it does right) not verified"
[ "$(grep -c '^broken-overrun .*FAILED: broken-overrun: wrote past the copied range' "$tmp/b")" -eq 3 ] && ok || bad "overrun not caught: $(cat "$tmp/b")"
[ "$(grep -c '^memcpy .* yes$' "$tmp/b")" -eq 3 ] && ok || bad "memcpy beside broken routines"
grep -q 'broken-short FAILED at chunk 4096' "$tmp/berr" && ok || bad "stderr does not name the failure"
# A FAILED point is read against nothing: the summary counts only the chunk it copied right.
grep -Eq '^broken-short +8 .* [0-9]+\.[0-9]{3}x[* ] +yes$' "$tmp/b" &&
	grep -q '^broken-short against memcpy: geometric mean [0-9.]*x over 1 chunk;' "$tmp/b" &&
	ok || bad "the right chunks of a FAILED routine not read against memcpy: $(cat "$tmp/b")"

# The table reads each routine against the C library's of its contract at the same chunk: a
# byte loop far under memcpy by the rank test, copyperf_memmove against memmove; the C
# library's own rows and a run without it read against nothing.
"$cp" -q -r memcpy,bytes,memmove,copyperf_memmove -c hot -s 4K -t 1M -n 9 >"$tmp/vs" 2>&1
st=$?
[ "$st" -eq 0 ] && grep -q '^vs libc: the routine.s speed over memcpy.s' "$tmp/vs" &&
	grep -Eq '^memcpy +4096 .* - +yes$' "$tmp/vs" && grep -Eq '^memmove +4096 .* - +yes$' "$tmp/vs" &&
	grep -Eq '^bytes +4096 .* 0\.[0-9]{3}x\* +yes$' "$tmp/vs" &&
	grep -q '^bytes against memcpy: geometric mean 0\.[0-9]*x over 1 chunk; faster at 0, slower at 1 (4096 B)$' "$tmp/vs" &&
	grep -q '^copyperf_memmove against memmove: geometric mean ' "$tmp/vs" &&
	ok || bad "routines against the C library's (exit $st): $(cat "$tmp/vs")"
"$cp" -q -r bytes,words -c hot -s 4K -t 1M -n 2 >"$tmp/vs" 2>&1
st=$?
[ "$st" -eq 0 ] && grep -Eq '^words +4096 .* yes$' "$tmp/vs" && ! grep -q 'vs libc\|against' "$tmp/vs" &&
	ok || bad "a run without the C library's routines (exit $st): $(cat "$tmp/vs")"
# Every copy, not only the last one over each byte: a pass is checked before the next covers it
# (1024 calls a measurement, 16 a pass; the 1000th and 2000th calls are wrong, neither in a last pass).
for c in hot flush flush-timed; do
	"$broken" -q -r broken-rarely -s 4K -t 4M -n 1 -c $c >"$tmp/b" 2>/dev/null
	st=$?
	[ "$st" -eq 1 ] && grep -Eq '^broken-rarely +4096  FAILED: broken-rarely: wrong byte at offset [0-9]+: ' "$tmp/b" &&
		ok || bad "-c $c: a copy wrong once in 1000 calls not caught: exit $st, $(cat "$tmp/b")"
done
# A copy wrong only on its first call, which the next pass covers, is seen in the timed walk
# itself: in every mode but hot, and in hot mode with passes of 4 MiB and more.
for args in "-c flush" "-c flush-timed" "-c hot -b 8M -s 4M -t 24M"; do
	# shellcheck disable=SC2086 # the options are meant to split
	"$broken" -q -r broken-first $args -n 1 >"$tmp/b" 2>/dev/null
	st=$?
	[ "$st" -eq 1 ] && grep -Eq '^broken-first +[0-9]+  FAILED: broken-first: wrong byte at offset 0: ' "$tmp/b" &&
		ok || bad "$args: a copy wrong on its first call only not caught: exit $st, $(cat "$tmp/b")"
done
# A walk longer than the one before it (65400 B of 600 B chunks, then all 65536 B in 1 KiB
# ones, and again at 1000 B in cold mode, which moves along the buffer): right copies stay right.
for c in hot flush flush-timed cold; do
	"$cp" -q -r memcpy -s 600,1K,1000 -t 1M -n 1 -c $c >"$tmp/b" 2>"$tmp/err"
	st=$?
	[ "$st" -eq 0 ] && [ "$(grep -c '^memcpy .* yes$' "$tmp/b")" -eq 3 ] &&
		ok || bad "-c $c: sizes 600,1K,1000: exit $st, $(cat "$tmp/b" "$tmp/err")"
done
# A routine that writes its source: with its arguments swapped, each pass made the source what
# the destination was, and every second pass made both right again for a check against the
# source as it then was. Named as such in every mode, and the routine after it still measures.
for c in hot flush flush-timed cold; do
	"$broken" -q -r broken-swapped,memcpy -s 4K,64 -t 4M -n 1 -c $c >"$tmp/b" 2>/dev/null
	st=$?
	[ "$st" -eq 1 ] && [ "$(grep -Ec '^broken-swapped +[0-9]+  FAILED: broken-swapped: changed its source, at offset [0-9]+$' "$tmp/b")" -eq 2 ] &&
		[ "$(grep -c '^memcpy .* yes$' "$tmp/b")" -eq 2 ] &&
		ok || bad "-c $c: a routine copying the destination over the source: exit $st, $(cat "$tmp/b")"
done
"$broken" -q -r broken-source -s 4K -t 4M -n 1 >"$tmp/b" 2>/dev/null
grep -Eq '^broken-source +4096  FAILED: broken-source: changed its source, at offset 32768$' "$tmp/b" &&
	ok || bad "a routine changing a source byte past its range: $(cat "$tmp/b")"
"$broken" -q -f json -r broken-short -s 4K -t 64K -n 1 -o "$tmp/b.json" 2>/dev/null
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; assert r["verified"] is False and "bytes_per_s" not in r and "4095" in r["error"], r' "$tmp/b.json" && ok || bad "json of a FAILED point"

# ---- replayed call mixes (-d) --------------------------------------------------------------
usage_error "unknown distribution" "--distribution: 'nosuch' is not a shipped distribution" -d nosuch
usage_error "distribution in the kernel" "--distribution: not with --kernel" -d fleet --kernel
usage_error "working set without -d" "--working-set: only with --distribution" -w l1
usage_error "seed without -d" "--seed: only with --distribution" --seed 3
usage_error "bad working set" "--working-set: 'l4' is not l1, l2, llc, cold, stream or a size" -d fleet -w l4
usage_error "a working set twice" "--working-set: 'l1' is given twice" -d fleet -w l1,l1
usage_error "stream twice" "--working-set: 'stream' is given twice" -d fleet -w stream,stream
usage_error "stream in the kernel" "--working-set stream: not with --kernel (a stream is a list of calls" \
	-w stream --kernel -d fleet
usage_error "stream without -d" "--working-set: only with --distribution" -w stream
usage_error "tiny working set" "--working-set: 16 is out of range" -d fleet -w 16
usage_error "sizes with -d" "--sizes: not with --distribution" -d fleet -s 64
usage_error "cache mode with -d" "--cache: not with --distribution" -d fleet -c hot
usage_error "buffer with -d" "--buffer: not with --distribution" -d fleet -b 1M
usage_error "alignment with -d" "--align: not with --distribution" -d fleet -a 1:1
usage_error "seed format with -d" "--format seed: the 2008 lines have no call mixes" -d fleet -f seed
usage_error "bad seed" "--seed: 'x1' is not a whole number" -d fleet --seed x1
usage_error "memmove mixes without a memmove" "none of the routines allows overlapping buffers" \
	-d memmove_7 -r memcpy -w 8K
# A distribution file with a bad line: its path, line and column.
printf '1:0.5,2:0.5\n0:1\n1:0.5,3:0.5\n' >"$tmp/badalign.csv"
usage_error "alignment not a power of two" "$tmp/badalign.csv:3:7:" -d "$tmp/badalign.csv" -w 8K
# Comment lines are skipped, and counted in the line an error names.
printf '# a\n1:0.5,2:0.5\n# b\n0:1\n1:0.5,3:0.5\n# calls 2\n' >"$tmp/badalign.csv"
usage_error "a bad line after comments" "$tmp/badalign.csv:5:7: alignment '3'" -d "$tmp/badalign.csv" -w 8K
# A recording, FILE.memcpy and FILE.memmove: -d FILE reads both, each replayed by the routines
# of its contract; a FILE with neither is named with what was looked for.
printf '24:3,100:1\n0:1,1:0\n8:1,64:1\n# calls 4\n' >"$tmp/rec.memcpy"
printf '# calls 2\n16:1\n0:0.5,1:0.5\n1:1\n' >"$tmp/rec.memmove"
"$cp" -q -d "$tmp/rec" -w 8K -n 1 -t 1M -r memcpy,memmove -f json -o "$tmp/rec.json" 2>"$tmp/err" &&
	grep -q 'not measured on the memmove mixes.*: memcpy$' "$tmp/err" &&
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; p=sys.argv[2]
assert sorted((x["routine"], x["distribution"]) for x in r) == [("memcpy", p + ".memcpy"), ("memmove", p + ".memcpy"), ("memmove", p + ".memmove")], r
assert all(x["verified"] for x in r), r' "$tmp/rec.json" "$tmp/rec" && ok ||
	bad "-d on a recording's two files: $(cat "$tmp/err")"
usage_error "no recording" "'$tmp/none' is not a shipped distribution (.*), a readable file or a recording ($tmp/none.memcpy, $tmp/none.memmove)" \
	-d "$tmp/none"

# Two shipped mixes, a small working set: every point verified, the documented JSON.
"$cp" -q -d memcpy_3,memmove_7 -w 8K,l1 -n 3 -t 1M -r memcpy,memmove,copyperf_memcpy,copyperf_memmove \
	-f json -o "$tmp/d.json" 2>"$tmp/derr"
st=$?
[ "$st" -eq 0 ] && ok || bad "-d run: exit $st, $(cat "$tmp/derr")"
grep -q 'not measured on the memmove mixes.*: memcpy, copyperf_memcpy$' "$tmp/derr" && ok ||
	bad "no note of the routines that sit out the memmove mix: $(cat "$tmp/derr")"
python3 - "$tmp/d.json" <<'PY' && ok || bad "-d json shape"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["config"]
assert c["seed"] == 2008 and c["distributions"] == ["memcpy_3", "memmove_7"], c
assert c["working_sets"] == ["8K", "l1"], c
# no chunk sweep's settings: a replay has no sizes, buffers, flushes or offsets of one
assert all(c[k] is None for k in ("sizes", "buffer", "cache", "align")), c
l1 = d["machine"]["caches"]["L1d"]["size"] * 3 // 4
res = d["results"]
# memcpy_3 for four routines, memmove_7 for the two that allow overlap; two working sets each
assert len(res) == (4 + 2) * 2, len(res)
seen = set()
for r in res:
    assert r["verified"] is True, r
    seen.add((r["routine"], r["distribution"], r["working_set"]))
    assert r["working_set"] in (8192, l1), r
    assert r["calls"] >= 65536 and r["repeats"] == 3 and len(r["samples"]) == 3, r
    assert abs(r["mean_size"] * r["calls"] - r["total"]) < 1e-6 * r["total"] + 1, r
    ns, b, s = r["ns_per_call"], r["bytes_per_s"], r["seconds"]
    assert 0 < ns["min"] <= ns["median"] <= ns["max"], ns
    assert abs(ns["median"] * r["calls"] / 1e9 - s["median"]) < 1e-6 * s["median"], (ns, s)
    assert abs(b["median"] * s["median"] - r["total"]) < 1e-6 * r["total"], (b, s)
    assert r["mean_size"] < (40 if r["distribution"] == "memmove_7" else 40), r
assert ("memcpy", "memmove_7", 8192) not in seen and ("copyperf_memmove", "memmove_7", 8192) in seen
PY
grep -q '^llc, cold' "$tmp/d.json" && bad "-w 8K,l1 says how the last level was sized" || ok
python3 -c 'import json,sys; assert "llc" not in json.load(open(sys.argv[1]))["machine"]' "$tmp/d.json" &&
	ok || bad "-w 8K,l1: a last level in the JSON without llc or cold"

# llc and cold: half and twice the last level this CPU finds (a guest may be told its host's
# whole L3), measured by random reads, or COPYPERF_LLC's; the table and the JSON say which.
COPYPERF_LLC=1M "$cp" -d memcpy_3 -w llc,cold -n 1 -t 1M -r memcpy >"$tmp/llc.txt" 2>"$tmp/err" &&
	grep -q '^llc, cold: from a last level of 1 MiB (COPYPERF_LLC; the machine reports ' "$tmp/llc.txt" &&
	grep -Eq '^memcpy +memcpy_3 +llc +524288 ' "$tmp/llc.txt" && grep -Eq '^memcpy +memcpy_3 +cold +2097152 ' "$tmp/llc.txt" &&
	ok || bad "COPYPERF_LLC=1M: $(cat "$tmp/llc.txt" "$tmp/err")"
COPYPERF_LLC=12x usage_error "COPYPERF_LLC not a size" "--working-set llc: COPYPERF_LLC='12x' is not a size such as 16M (or 16M,64M)" \
	-d memcpy_3 -w llc
COPYPERF_LLC=1M,x usage_error "COPYPERF_LLC's second size" "--working-set cold: COPYPERF_LLC='1M,x' is not a size such as 16M (or 16M,64M)" \
	-d memcpy_3 -w cold
# SIZE,MEMORY: llc from the first, cold from the second.
COPYPERF_LLC=1M,3M "$cp" -q -d memcpy_3 -w llc,cold -n 1 -t 1M -r memcpy >"$tmp/llc2.txt" 2>"$tmp/err" &&
	grep -Eq '^memcpy +memcpy_3 +llc +524288 ' "$tmp/llc2.txt" && grep -Eq '^memcpy +memcpy_3 +cold +6291456 ' "$tmp/llc2.txt" &&
	ok || bad "COPYPERF_LLC=1M,3M: $(cat "$tmp/llc2.txt" "$tmp/err")"
"$cp" -q -d memcpy_3 -w llc -n 1 -t 1M -r memcpy -f json -o "$tmp/llc.json" 2>"$tmp/err" &&
	python3 - "$tmp/llc.json" <<'PY' && ok || bad "-w llc: the last level measured: $(cat "$tmp/err")"
import json, sys
d = json.load(open(sys.argv[1]))
llc = d["machine"]["llc"]
assert d["results"][0]["working_set"] == llc["size"] // 2, (d["results"][0], llc)
assert 0 < llc["size"] <= llc["reported"], llc
if llc["source"] == "measured":  # the first region that did not hold: over 3x the reference's time
    assert llc["miss"]["bytes"] == llc["size"] and llc["miss"]["bytes"] > llc["reference"]["bytes"], llc
    assert llc["miss"]["ns_per_read"] > 3 * llc["reference"]["ns_per_read"] > 0, llc
else:
    assert llc["source"] == "reported" and llc["size"] == llc["reported"] and "miss" not in llc, llc
# cold and stream: from the reported level, up to 4 times the measured one
assert llc["memory"] == min(max(llc["size"], llc["reported"]), 4 * llc["size"]), llc
PY
# The same seed draws the same calls, another seed others: the first call that goes wrong (its
# index and offsets) repeats with the seed and moves with another.
for seed in 2008 2008 7; do
	"$broken" -q -d memcpy_3 -w 8K -n 1 -t 1M -r broken-at-37 --seed "$seed" 2>/dev/null |
		grep -o 'call [0-9]* of .*)'
done >"$tmp/seeds"
[ "$(wc -l <"$tmp/seeds")" -eq 3 ] && [ "$(sed -n 1p "$tmp/seeds")" = "$(sed -n 2p "$tmp/seeds")" ] &&
	[ "$(sed -n 1p "$tmp/seeds")" != "$(sed -n 3p "$tmp/seeds")" ] && ok ||
	bad "the seed does not fix the calls: $(cat "$tmp/seeds")"

# A routine wrong only at 37 B: caught on the mix that draws 37 B, named with the call; not on
# the one that never does.
"$broken" -q -d memcpy_3,memcpy_7 -w 8K -r memcpy,broken-at-37 -n 2 -t 1M >"$tmp/b37" 2>"$tmp/b37err"
st=$?
[ "$st" -eq 1 ] && ok || bad "broken-at-37: exit $st, expected 1"
grep -Eq 'broken-at-37 +memcpy_3 .*FAILED: .*size 37, .*wrong byte at \+20' "$tmp/b37" && ok ||
	bad "broken-at-37 not caught on memcpy_3: $(cat "$tmp/b37")"
grep -Eq 'broken-at-37 +memcpy_7 .* yes' "$tmp/b37" && ok || bad "broken-at-37 on memcpy_7 (no 37 B calls) not verified"
grep -q 'broken-at-37 FAILED on memcpy_3, working set 8K' "$tmp/b37err" && ok || bad "stderr: $(cat "$tmp/b37err")"
# stream: the calls one after another through two walks of twice the last level, 4 MiB in all
# under COPYPERF_LLC=1M; beside it a spread working set of the same bytes, another point. Every
# point verified, each named with its layout in the JSON; compare and plot keep the two apart.
for run in 1 2; do
	COPYPERF_LLC=1M "$cp" -q -d memcpy_3,memmove_7 -w stream,4M -n 2 -t 1M \
		-r memcpy,memmove,copyperf_memmove -f json -o "$tmp/stream$run.json" 2>"$tmp/err" ||
		bad "-w stream,4M: exit $?, $(cat "$tmp/err")"
done
python3 - "$tmp/stream1.json" <<'PY' && ok || bad "-w stream: the JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["config"]["working_sets"] == ["stream", "4M"], d["config"]
llc = d["machine"]["llc"]
assert llc["size"] == 1 << 20 and llc["source"] == "COPYPERF_LLC", llc
res = d["results"]
# memcpy_3 for three routines, memmove_7 for the two that allow overlap; two working sets each
assert len(res) == (3 + 2) * 2, len(res)
for r in res:
    assert r["verified"] is True and r["working_set"] == 4 << 20, r
    assert (r["working_set_name"], r["layout"]) in (("stream", "stream"), ("4M", "spread")), r
    assert r["calls"] > 0 and abs(r["mean_size"] * r["calls"] - r["total"]) < 1e-6 * r["total"] + 1, r
assert sum(r["layout"] == "stream" for r in res) == 5, res
PY
COPYPERF_LLC=1M "$cp" -q -d memcpy_3 -w stream -n 1 -t 1M -r memcpy,copyperf_memcpy >"$tmp/st" 2>"$tmp/err" &&
	grep -Eq '^memcpy +memcpy_3 +stream +4194304 .* yes$' "$tmp/st" &&
	grep -Eq '^copyperf_memcpy +memcpy_3 +stream +4194304 .* yes$' "$tmp/st" && ok ||
	bad "-w stream: the table: $(cat "$tmp/st" "$tmp/err")"
"$cp" compare "$tmp/stream1.json" "$tmp/stream2.json" >"$tmp/cmp" 2>"$tmp/err" &&
	[ "$(grep -Ec '^memmove +user +memmove_7 +stream ' "$tmp/cmp")" -eq 1 ] &&
	[ "$(grep -Ec '^memmove +user +memmove_7 +4M ' "$tmp/cmp")" -eq 1 ] &&
	grep -Eq '^memmove +user +[0-9.]+ +over 4 distributions and working sets$' "$tmp/cmp" &&
	! grep -q 'points only in' "$tmp/cmp" && ok || bad "compare of two stream runs: $(cat "$tmp/cmp" "$tmp/err")"
"$cp" plot -o "$tmp/stream.svg" "$tmp/stream1.json" 2>"$tmp/err" &&
	grep -q 'memcpy_3 stream' "$tmp/stream.svg" && grep -q 'memcpy_3 4M' "$tmp/stream.svg" && ok ||
	bad "plot of a stream run: $(cat "$tmp/err")"
# A routine wrong only at 37 B, caught in the stream as in the spread calls.
COPYPERF_LLC=1M "$broken" -q -d memcpy_3,memcpy_7 -w stream -r memcpy,broken-at-37 -n 1 -t 1M \
	>"$tmp/b37" 2>"$tmp/b37err"
st=$?
[ "$st" -eq 1 ] && grep -Eq 'broken-at-37 +memcpy_3 +stream .*FAILED: .*size 37, .*wrong byte at \+20' "$tmp/b37" &&
	grep -Eq 'broken-at-37 +memcpy_7 +stream .* yes$' "$tmp/b37" &&
	grep -q 'broken-at-37 FAILED on memcpy_3, working set stream' "$tmp/b37err" && ok ||
	bad "broken-at-37 in a stream: exit $st, $(cat "$tmp/b37" "$tmp/b37err")"
# --chain: each call waits for the one before. Every point verified and marked chained in the
# JSON, the table's first line says so, compare keeps chained and independent points apart, plot
# labels them, and a routine wrong only at 37 B is caught in chained calls too.
"$cp" -q -d memcpy_3,memmove_7 -w 8K,stream --chain -n 2 -t 1M -r memcpy,memmove,copyperf_memmove \
	-f json -o "$tmp/chain.json" 2>"$tmp/err" || bad "--chain: exit $?, $(cat "$tmp/err")"
python3 - "$tmp/chain.json" <<'PY' && ok || bad "--chain: the JSON"
import json, sys
res = json.load(open(sys.argv[1]))["results"]
assert len(res) == 10, len(res)
assert all(r["chained"] is True and r["verified"] for r in res), res
assert {r["layout"] for r in res} == {"spread", "stream"}, res
PY
"$cp" -q -d memcpy_3 -w 8K -n 2 -t 1M -r memcpy,memmove,copyperf_memmove -f json -o "$tmp/free.json" \
	2>"$tmp/err" || bad "-d memcpy_3 -w 8K: exit $?, $(cat "$tmp/err")"
"$cp" compare "$tmp/free.json" "$tmp/chain.json" >"$tmp/cmp" 2>"$tmp/err" &&
	grep -q '^B: .*seed 2008, calls chained, 2 repeats$' "$tmp/cmp" &&
	grep -q '^points only in A: 3, only in B: 10 (not compared)$' "$tmp/cmp" && ok ||
	bad "compare of independent and chained calls: $(cat "$tmp/cmp" "$tmp/err")"
"$cp" plot -o "$tmp/chain.svg" "$tmp/chain.json" "$tmp/free.json" 2>"$tmp/err" &&
	grep -q 'memcpy_3 8K chained' "$tmp/chain.svg" && grep -q 'memcpy_3 8K<' "$tmp/chain.svg" && ok ||
	bad "plot of independent and chained calls: $(cat "$tmp/err")"
"$cp" -q -d memcpy_3 -w 8K --chain -n 1 -t 1M -r memcpy >"$tmp/ct" 2>"$tmp/err" &&
	head -1 "$tmp/ct" | grep -q 'recorded call mixes replayed, seed 2008, each call waiting for the one before (--chain)$' &&
	grep -Eq '^memcpy +memcpy_3 +8K +8192 .* yes$' "$tmp/ct" && ok || bad "--chain: the table: $(cat "$tmp/ct" "$tmp/err")"
COPYPERF_LLC=1M "$broken" -q -d memcpy_3 -w 8K,stream --chain -r memcpy,broken-at-37 -n 1 -t 1M \
	>"$tmp/b37" 2>"$tmp/b37err"
st=$?
[ "$st" -eq 1 ] && [ "$(grep -Ec 'broken-at-37 +memcpy_3 +(8K|stream) .*FAILED: .*size 37, .*wrong byte at \+20' "$tmp/b37")" -eq 2 ] &&
	ok || bad "broken-at-37 in chained calls: exit $st, $(cat "$tmp/b37" "$tmp/b37err")"
usage_error "chain without -d" "--chain: only with --distribution (it chains a replay's calls" --chain
# --tested: each call after the caller's tests of its size. Every point verified and marked
# tested (and chained where asked) in the JSON, the table's first line says so, compare keeps
# tested and untested points apart, and a routine wrong only at 37 B is caught in tested calls.
"$cp" -q -d memcpy_3,memmove_7 -w 8K --tested -n 2 -t 1M -r memcpy,memmove,copyperf_memmove \
	-f json -o "$tmp/tested.json" 2>"$tmp/err" || bad "--tested: exit $?, $(cat "$tmp/err")"
python3 - "$tmp/tested.json" <<'PY' && ok || bad "--tested: the JSON"
import json, sys
res = json.load(open(sys.argv[1]))["results"]
assert len(res) == 5, len(res)
assert all(r["tested"] is True and r["chained"] is False and r["verified"] for r in res), res
PY
"$cp" compare "$tmp/free.json" "$tmp/tested.json" >"$tmp/cmp" 2>"$tmp/err" &&
	grep -q '^B: .*seed 2008, calls tested, 2 repeats$' "$tmp/cmp" &&
	grep -q '^points only in A: 3, only in B: 5 (not compared)$' "$tmp/cmp" && ok ||
	bad "compare of untested and tested calls: $(cat "$tmp/cmp" "$tmp/err")"
"$cp" -q -d memcpy_3 -w 8K --tested --chain -n 1 -t 1M -r memcpy >"$tmp/tt" 2>"$tmp/err" &&
	head -1 "$tmp/tt" | grep -q "seed 2008, each call waiting for the one before (--chain), each after the caller's tests of its size (--tested)$" &&
	grep -Eq '^memcpy +memcpy_3 +8K +8192 .* yes$' "$tmp/tt" && ok || bad "--tested --chain: the table: $(cat "$tmp/tt" "$tmp/err")"
"$broken" -q -d memcpy_3 -w 8K --tested -r memcpy,broken-at-37 -n 1 -t 1M >"$tmp/b37" 2>"$tmp/b37err"
st=$?
[ "$st" -eq 1 ] && grep -Eq 'broken-at-37 +memcpy_3 +8K .*FAILED: .*size 37, .*wrong byte at \+20' "$tmp/b37" &&
	ok || bad "broken-at-37 in tested calls: exit $st, $(cat "$tmp/b37" "$tmp/b37err")"
usage_error "tested without -d" "--tested: only with --distribution (it tests a replay's sizes" --tested
# The caller's tests are branches in the timed loop, not folded away by the compiler: on x86-64
# the replay's loop (one tested pass, one tested and chained) holds a conditional jump for each
# of the size's 8 bits in each, where the untested passes hold a few.
if [ "$(uname -m)" = x86_64 ] && command -v objdump >/dev/null; then
	jcc=$(conditional_jumps "$cp" replay_timed)
	[ "$jcc" -ge 16 ] && ok "--tested: $jcc conditional jumps in the replay's loop" || bad "--tested: replay_timed holds $jcc conditional jumps, not 8 a tested pass"
fi
# A copy of nothing at 100 B, where every 100 B call's destination already holds its bytes
# (each starts where a correct 200 B call copied the same source): caught, not 2x faster.
printf '100:1,200:1\n0:1\n64:1\n' >"$tmp/same.csv"
"$broken" -q -d "$tmp/same.csv" -w 256 -t 4K -n 1 -r memcpy,broken-noop-100 >"$tmp/bn" 2>/dev/null
st=$?
[ "$st" -eq 1 ] && grep -Eq 'broken-noop-100 .*FAILED: .*size 100, .*wrong byte at \+0' "$tmp/bn" &&
	grep -Eq '^memcpy .* yes$' "$tmp/bn" && ok ||
	bad "a copy of nothing over bytes already right: exit $st, $(cat "$tmp/bn")"
# A stray write 70 B past a rare size's destination, which later calls cover in the timed passes.
"$broken" -q -d memcpy_0 -w 16K -t 1M -n 1 -r broken-stray-100 >"$tmp/bs" 2>/dev/null
st=$?
[ "$st" -eq 1 ] && grep -Eq 'broken-stray-100 .*FAILED: .*size 100, .*wrote past the destination, at \+170' "$tmp/bs" &&
	ok || bad "a stray write 70 B past the end: exit $st, $(cat "$tmp/bs")"
# A mix of copies of 0 and 1 byte: a bounded number of calls (one per 8 bytes of --total), not
# the 2^37 that copying 1M would take.
printf '0:0.99999,1:0.00001\n0:1\n1:1\n' >"$tmp/tiny.csv"
"$cp" -q -d "$tmp/tiny.csv" -w 256 -t 1M -n 1 -r memcpy -f csv >"$tmp/tiny.out" 2>&1 &&
	[ "$(cut -d, -f6 "$tmp/tiny.out" | tail -1)" = 131072 ] && ok ||
	bad "a mix of 0 and 1 byte copies: $(cat "$tmp/tiny.out")"
# A memmove that copies forward only: caught on a mix with overlapping calls.
"$broken" -q -d memmove_4 -w 16K -r memmove,broken-move -n 1 -t 1M >"$tmp/bm" 2>/dev/null
[ $? -eq 1 ] && grep -Eq 'broken-move .*FAILED' "$tmp/bm" && grep -Eq '^memmove .* yes' "$tmp/bm" && ok ||
	bad "forward-only memmove not caught: $(cat "$tmp/bm")"

# ---- threads (-j), pages (--pages), NUMA (--numa) ---------------------------------------------
usage_error "no threads" "--threads: 0 threads copy nothing" -j 0
usage_error "bad thread count" "--threads: 'two' is not a whole number" -j 1,two
usage_error "threads in the kernel" "--kernel: not with --threads (the module measures one copy at a time)" --kernel -j 2
usage_error "bad page size" "--pages: unknown value 'bogus' (valid: 4k, 2m, 1g, thp)" --pages bogus
usage_error "bad NUMA placement" "--numa: 'near' is not local, interleave or a node number" --numa near
# More threads than the CPUs the process may use: the CPUs named.
taskset -c 0 "$cp" -j 2 -s 4K -t 64K >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q -- '--threads: 2 threads, but this process may run on 1 CPU only (0)' "$tmp/err" && ok ||
	bad "-j 2 on one allowed CPU: $(cat "$tmp/err")"
ncpu=$(nproc)
usage_error "more threads than CPUs" "--threads: $((ncpu + 1)) threads, but this process may run on $ncpu CPUs only ($(python3 -c 'import os; print(",".join(map(str, sorted(os.sched_getaffinity(0)))))')" -j $((ncpu + 1)) -s 4K
# Explicit 1 GiB pages, none free: the command that reserves them.
g1=/sys/kernel/mm/hugepages/hugepages-1048576kB
if [ ! -d $g1 ]; then
	usage_error "--pages 1g without 1 GiB pages" "--pages 1g: this machine offers no 1 GiB huge pages" --pages 1g -s 4K
elif [ "$(cat $g1/free_hugepages)" -lt 2 ]; then
	usage_error "--pages 1g, none reserved" "--pages 1g: 2 1 GiB huge pages needed, $(cat $g1/free_hugepages) free; reserve them as root: echo $(($(cat $g1/nr_hugepages) + 2 - $(cat $g1/free_hugepages))) > $g1/nr_hugepages" --pages 1g -s 4K
else
	bad "--pages 1g: $(cat $g1/free_hugepages) 1 GiB pages are free here, so the missing reservation cannot be tested"
fi
nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
if [ "$nodes" -eq 1 ]; then
	usage_error "--numa 7 on one node" "--numa 7: no such node (this machine has one NUMA node, node 0)" --numa 7 -s 4K
else
	usage_error "--numa on a node that does not exist" "--numa 4095: no such node" --numa 4095 -s 4K
fi

if [ "$ncpu" -lt 2 ]; then
	bad "the -j tests need 2 CPUs, this process may use $ncpu"
fi
# -j 2 in every cache mode, an odd alignment, and a replay: every thread's copies verified.
for mode in flush flush-timed hot cold; do
	"$cp" -q -c "$mode" -a 3:61 -t 256K -n 1 -s 64K,100,8 -r memcpy,copyperf_memcpy -j 2 >"$tmp/t" &&
		[ "$(grep -Ec ' +2 .* yes$' "$tmp/t")" -eq 6 ] && ok || bad "-j 2, cache $mode: $(cat "$tmp/t")"
done
grep -q "^threads on CPUs [0-9]*,[0-9]* in this order" "$tmp/t" && ok || bad "the table does not say which CPUs: $(head -5 "$tmp/t")"
"$cp" -q -d memcpy_3,memmove_7 -w 8K -n 1 -t 1M -r memcpy,copyperf_memmove -j 1,2 >"$tmp/t" 2>/dev/null &&
	[ "$(grep -c ' yes$' "$tmp/t")" -eq 6 ] && ok || bad "-j 1,2 replay: $(cat "$tmp/t")"
grep -q "^with threads, ns/call is the aggregate's time over all threads' calls" "$tmp/t" && ok ||
	bad "a threaded replay's table does not say what its ns/call is: $(head -8 "$tmp/t")"

# JSON: the threads, their CPUs and speeds, the aggregate over them; the pages and NUMA nodes.
"$cp" -q -c hot -s 4K,64 -t 1M -n 3 -r memcpy,copyperf_memcpy -j 1,all -f json -o "$tmp/j.json"
st=$?
[ "$st" -eq 0 ] && ok || bad "-j 1,all json run: exit $st"
python3 - "$tmp/j.json" <<'PY' && ok || bad "-j json fields"
import json, os, sys
d = json.load(open(sys.argv[1]))
allowed = sorted(os.sched_getaffinity(0))
c = d["config"]
assert c["threads"] == [1, "all"], c["threads"]
assert sorted(c["thread_cpus"]) == allowed, (c["thread_cpus"], allowed)
nodes = d["machine"]["numa_nodes"]
assert nodes and all(n["cpus"] for n in nodes) and set(allowed) <= {x for n in nodes for x in n["cpus"]}, nodes
assert c["pages"]["asked"] == "default" and c["pages"]["page_size"] >= 4096, c["pages"]
assert c["pages"]["bytes"] >= 2 * len(allowed) * 65536, c["pages"]
res = d["results"]
assert len(res) == 2 * 2 * 2, len(res)
for r in res:
    n = r["threads"]
    assert n in (1, len(allowed)) and r["verified"] is True, r
    assert r["cpus"] == c["thread_cpus"][:n], r
    assert r["total"] == n * (1048576 // r["chunk"] * r["chunk"]), r
    sp = r["thread_bytes_per_s"]
    assert len(sp) == n and len(r["thread_samples"]) == n, r
    assert min(sp) == r["slowest_thread_bytes_per_s"] and max(sp) == r["fastest_thread_bytes_per_s"], r
    for t in range(n):
        own = sorted(r["thread_samples"][t])
        assert len(own) == 3 and abs(sp[t] * own[1] - r["total"] / n) < 1e-6 * r["total"], (t, r)
        # the aggregate spans every thread's own copies (hot: nothing paused)
        for k in range(3):
            assert r["samples"][k] >= r["thread_samples"][t][k] - 1e-9, (k, t, r)
    assert abs(r["bytes_per_s"]["median"] * r["seconds"]["median"] - r["total"]) < 1e-6 * r["total"], r
PY
"$cp" -q -c hot -s 4K -t 256K -n 2 -r memcpy -j 1,all -f csv | head -n 1 | grep -q ',threads,cpus,slowest_thread_bytes_per_s,fastest_thread_bytes_per_s,thread_bytes_per_s$' &&
	ok || bad "csv lacks the thread columns"

# A routine wrong on every CPU but the first: right on one thread, caught in thread 2.
second=$(python3 -c 'import os; print(sorted(os.sched_getaffinity(0))[1])')
"$broken" -q -r memcpy,broken-off-cpu0 -s 4K -t 64K -n 2 -j 1,2 -c hot >"$tmp/b" 2>"$tmp/berr"
st=$?
[ "$st" -eq 1 ] && ok || bad "broken in thread 2: exit $st, expected 1"
grep -Eq '^broken-off-cpu0 +4096 +1 .* yes$' "$tmp/b" && ok || bad "broken-off-cpu0 on the first CPU alone not verified: $(cat "$tmp/b")"
grep -Eq "^broken-off-cpu0 +4096 +2  FAILED: thread 2 \(CPU $second\): broken-off-cpu0: wrong byte at offset 2048" "$tmp/b" && ok ||
	bad "broken in thread 2 not caught: $(cat "$tmp/b")"
[ "$(grep -c '^memcpy .* yes$' "$tmp/b")" -eq 2 ] && ok || bad "memcpy beside it: $(cat "$tmp/b")"

# --pages: what the kernel gave, read back. 4k: no transparent huge pages; thp: some, where enabled.
pages_json() { # FILE KEY: the config's pages.KEY
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["config"]["pages"][sys.argv[2]])' "$1" "$2"
}
# Four mappings (two threads, two buffers) of 72 KiB each, counted alone, not with their neighbours.
"$cp" -q -c hot -s 4K -t 256K -n 1 -r memcpy -j 2 --pages 4k -f json -o "$tmp/p4.json" &&
	[ "$(pages_json "$tmp/p4.json" page_size)" -eq 4096 ] && [ "$(pages_json "$tmp/p4.json" transparent_huge_bytes)" -eq 0 ] &&
	[ "$(pages_json "$tmp/p4.json" bytes)" -eq $((4 * 73728)) ] && ok || bad "--pages 4k: $(head -c 1500 "$tmp/p4.json")"
# The same without --pages, ten times: a mapping is never seen merged with another thread's that
# is being made (it once was, while its guard page was still open: 1 run in 300).
"$cp" -q -c hot -b 4K -s 4K -t 4K -n 1 -r memcpy -j 1 -f json -o "$tmp/pd1.json"
one=$(pages_json "$tmp/pd1.json" bytes)
for i in 1 2 3 4 5 6 7 8 9 10; do
	"$cp" -q -c hot -b 4K -s 4K -t 4K -n 1 -r memcpy -j all -f json -o "$tmp/pda.json" &&
		[ "$(pages_json "$tmp/pda.json" bytes)" -eq $((ncpu * one)) ] || break
done
[ "$i" -eq 10 ] && [ "$(pages_json "$tmp/pda.json" bytes)" -eq $((ncpu * one)) ] && ok ||
	bad "-j all counted $(pages_json "$tmp/pda.json" bytes) bytes of buffers in run $i, not $ncpu x $one"
# A thread that cannot be created: one line and exit 2, the threads made before it (started 50 ms
# late by the shim) released and joined, not left at a barrier.
if grep -qa __asan_init "$cp"; then
	echo "note: a failing pthread_create not tried on this AddressSanitizer build (make test-cli tries it)"
elif [ ! -f "$fail_alloc" ]; then
	bad "a failing pthread_create: no shim at $fail_alloc"
else
	for i in 1 2 3; do
		FAIL_THREAD_AT=2 LD_PRELOAD=$fail_alloc "$cp" -q -j 2 -r memcpy -s 4K -t 1M -n 1 >/dev/null 2>"$tmp/err"
		st=$?
		[ "$st" -eq 2 ] && [ "$(cat "$tmp/err")" = "copyperf: --threads: cannot start thread 2: Resource temporarily unavailable" ] || break
	done
	[ "$st" -eq 2 ] && [ "$i" -eq 3 ] && ok || bad "thread 2 not created: exit $st, $(cat "$tmp/err")"
fi
# Where the kernel put them (move_pages): every byte on a node the machine block lists.
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
p, nodes = d["config"]["pages"], [n["node"] for n in d["machine"]["numa_nodes"]]
assert p["nodes"] and sum(n["bytes"] for n in p["nodes"]) == p["bytes"], p
assert all(n["node"] in nodes for n in p["nodes"]), (p, nodes)
assert len(nodes) > 1 or p["nodes"] == [{"node": nodes[0], "bytes": p["bytes"]}], (p, nodes)' "$tmp/p4.json" 2>"$tmp/err" &&
	ok || bad "--pages 4k: where the buffers are: $(tail -n 1 "$tmp/err")"
"$cp" -q -c hot -s 4K -t 256K -n 1 -r memcpy -j 2 --pages thp >"$tmp/thp" &&
	grep -q 'yes$' "$tmp/thp" && grep -Eq '^buffers: 4 KiB pages, .* on transparent huge pages(; all on node [0-9]+)? \(asked: --pages thp\)$' "$tmp/thp" &&
	ok || bad "--pages thp table: $(cat "$tmp/thp")"
"$cp" -q -c hot -s 4K -t 256K -n 1 -r memcpy -j 2 --pages thp -f json -o "$tmp/thp.json"
thp=$(pages_json "$tmp/thp.json" transparent_huge_bytes)
if grep -q '\[never\]' /sys/kernel/mm/transparent_hugepage/enabled; then
	[ "$thp" -eq 0 ] && ok || bad "--pages thp: THP disabled here, yet $thp bytes reported"
else
	# four 2 MiB-aligned mappings (two threads, two buffers), each touched whole after madvise
	[ "$thp" -gt 0 ] && [ "$thp" -le "$(pages_json "$tmp/thp.json" bytes)" ] && ok ||
		bad "--pages thp: $thp bytes on transparent huge pages (THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled))"
fi
# --pages 2m: none free is refused with the command that reserves them; that command, run, is
# enough; the run then reports 2 MiB pages.  The reservation is restored afterwards.
h2=/sys/kernel/mm/hugepages/hugepages-2048kB
if [ "$(id -u)" -ne 0 ]; then
	bad "--pages 2m: the test reserves 2 MiB pages and needs root"
elif [ ! -d $h2 ]; then
	bad "--pages 2m: this kernel offers no 2 MiB pages ($h2)"
else
	old=$(cat $h2/nr_hugepages)
	echo "$((old - $(cat $h2/free_hugepages)))" >$h2/nr_hugepages # none free
	"$cp" -q -s 4K -t 256K -n 1 -r memcpy -j 2 --pages 2m >"$tmp/out" 2>"$tmp/err"
	st=$?
	reserve=$(sed -n 's/.*reserve them as root: //p' "$tmp/err")
	[ "$st" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- '--pages 2m: 4 2 MiB huge pages needed, 0 free' "$tmp/err" &&
		[ -n "$reserve" ] && ok || bad "--pages 2m, none free: exit $st, $(cat "$tmp/err")"
	sh -c "$reserve"
	"$cp" -q -c hot -s 4K -t 256K -n 1 -r memcpy,copyperf_memcpy -j 2 --pages 2m -f json -o "$tmp/p2.json" 2>"$tmp/err" &&
		[ "$(pages_json "$tmp/p2.json" page_size)" -eq 2097152 ] &&
		[ "$(pages_json "$tmp/p2.json" hugetlb_bytes)" -eq "$(pages_json "$tmp/p2.json" bytes)" ] &&
		[ "$(pages_json "$tmp/p2.json" bytes)" -eq $((4 * 2097152)) ] && ok ||
		bad "--pages 2m after '$reserve': $(cat "$tmp/err") $(cat "$tmp/p2.json" 2>/dev/null | head -c 600)"
	# a replay's arenas too (an 8 KiB working set: one 2 MiB page for the arena, one for its copy)
	"$cp" -q -d memcpy_3 -w 8K -t 1M -n 1 -r memcpy -j 2 --pages 2m -f json -o "$tmp/p2d.json" 2>"$tmp/err" &&
		[ "$(pages_json "$tmp/p2d.json" page_size)" -eq 2097152 ] &&
		[ "$(pages_json "$tmp/p2d.json" hugetlb_bytes)" -eq $((2 * 2097152)) ] && ok ||
		bad "--pages 2m replay: $(cat "$tmp/err") $(head -c 600 "$tmp/p2d.json" 2>/dev/null)"
	echo "$old" >$h2/nr_hugepages
	[ "$(cat $h2/nr_hugepages)" -eq "$old" ] && ok || bad "2 MiB reservation not restored to $old"
fi
# --numa: verified runs; on one node, its note once, and no other line but the notes a loaded
# machine may bring (two threads whose starts lie apart).
for where in local interleave 0; do
	"$cp" -q -c hot -s 4K -t 8M -n 1 -r memcpy -j 2 --numa "$where" >"$tmp/t" 2>"$tmp/err" &&
		[ "$(grep -c ' yes$' "$tmp/t")" -eq 1 ] && grep -q "^buffers: .*--numa $where)$" "$tmp/t" && ok ||
		bad "--numa $where: $(cat "$tmp/t" "$tmp/err")"
	if [ "$nodes" -eq 1 ]; then
		one="^copyperf: note: --numa $where: this machine has one NUMA node"
		[ "$(grep -c "$one" "$tmp/err")" -eq 1 ] && only_load_notes "$tmp/err" "$one" &&
			ok || bad "--numa $where on one node: stderr $(cat "$tmp/err")"
	fi
done
. "$(dirname "$0")/atomic_output.sh"
. "$(dirname "$0")/memory.sh"
. "$(dirname "$0")/alloc_failures.sh"
. "$(dirname "$0")/shared_routines.sh"

tally cli
