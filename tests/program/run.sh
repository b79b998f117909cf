#!/bin/sh
# `copyperf program`: a real program timed without and with the preload shim; and the table
# make bench-apps makes of its results.
# usage: run.sh COPYPERF SHIM COPIER BROKEN_SHIM OTHER_SO (a library that defines no memcpy)
set -u
cp=$1
shim=$2
copier=$3
broken=$4
other=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../tally.sh"

# prog ARGS...: copyperf program, given the shim where it is not the one beside copyperf (the
# default, as in build/; a sanitized copyperf is built elsewhere).
shim_opt=
[ "$(dirname "$(realpath "$cp")")" = "$(dirname "$(realpath "$shim")")" ] || shim_opt="--shim=$shim"
prog() { "$cp" program ${shim_opt:+"$shim_opt"} "$@"; }

# json FILE EXPR: EXPR in python over the document d; prints its value, fails on a KeyError.
json() {
	python3 -c 'import json,sys,math; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# usage_error DESCRIPTION EXPECTED-TEXT ARGS...: exit 2, one line on stderr naming the problem.
usage_error() {
	desc=$1 want=$2
	shift 2
	prog "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$st" -ne 2 ]; then bad "$desc: exit $st, expected 2"; return; fi
	if [ "$lines" -ne 1 ]; then bad "$desc: $lines lines on stderr, expected 1: $(cat "$tmp/err")"; return; fi
	if ! grep -q -- "$want" "$tmp/err"; then bad "$desc: stderr lacks '$want': $(cat "$tmp/err")"; return; fi
	if [ -s "$tmp/out" ]; then bad "$desc: printed results anyway"; return; fi
	ok
}

touch "$tmp/plain"
mkdir "$tmp/dir"
usage_error "no command" "no command given" -n 1
usage_error "no command after --" "no command given" -n 1 --
usage_error "a command not found" "nosuchcommand-xyz: command not found in PATH" -- nosuchcommand-xyz
usage_error "a path that does not exist" "$tmp/none: no such file" -- "$tmp/none"
usage_error "a file that is not executable" "$tmp/plain: not an executable file" -- "$tmp/plain"
usage_error "a directory as the command" "$tmp/dir: not an executable file" -- "$tmp/dir"
usage_error "no pairs" "-n 0: the pairs must be a number from 1 to 100000" -n 0 -- "$copier" none
usage_error "pairs not a number" "-n 3x: the pairs must be" -n 3x -- "$copier" none
usage_error "a shim that is not a shared object" "--shim /etc/passwd: does not load" --shim /etc/passwd -- "$copier" none
usage_error "a library that is no shim" "--shim $(realpath "$other"): defines no memcpy of its own" --shim "$other" -- "$copier" none
usage_error "a shim that does not exist" "--shim $tmp/no.so:" --shim "$tmp/no.so" -- "$copier" none
usage_error "a CPU this process cannot use" "--cpu 1000: not a CPU this process may run on" --cpu 1000 -- "$copier" none
usage_error "a CPU that is not a number" "--cpu one: not a CPU number" --cpu one -- "$copier" none
usage_error "a bad format" "-f xml: not a format" -f xml -- "$copier" none
usage_error "standard input that cannot be read" "--stdin $tmp/none:" --stdin "$tmp/none" -- "$copier" none
usage_error "output kept in a missing directory" "--keep-output $tmp/none:" --keep-output "$tmp/none" -- "$copier" none
usage_error "output kept in a file" "--keep-output $tmp/plain: not a directory" --keep-output "$tmp/plain" -- "$copier" none
usage_error "an unknown option" "unknown option '--bogus'" --bogus -- "$copier" none
usage_error "an unwritable output file" "$tmp/no/such/r.json" -o "$tmp/no/such/r.json" -- "$copier" none

# A program that copies a lot: the table, finite numbers, exit 0.
if prog -q -n 3 -- "$copier" copy 20 >"$tmp/t" 2>"$tmp/err" &&
	grep -q '^ratio [0-9.]*x' "$tmp/t" && grep -q '^without the shim ' "$tmp/t" &&
	grep -q '^with the shim ' "$tmp/t" && grep -q '^pairs [0-9.]*x-[0-9.]*x; p [0-9.]*' "$tmp/t" &&
	! grep -qi 'nan\|inf' "$tmp/t" && [ ! -s "$tmp/err" ]; then
	ok "a program that copies: the table, finite ratios"
else
	bad "a program that copies: $(cat "$tmp/t" "$tmp/err")"
fi

# The JSON: every field, the samples one per pair, the command's words kept apart; the shim the
# one given (without --shim it depends on the variant the library chose: below).
if "$cp" program --shim="$shim" -q -n 3 -f json -o "$tmp/c.json" -- "$copier" copy 20 2>"$tmp/err" &&
	[ "$(json "$tmp/c.json" 'd["program"]["command"][1:]')" = "['copy', '20']" ] &&
	[ "$(json "$tmp/c.json" 'd["program"]["pairs"]')" = 3 ] &&
	[ "$(json "$tmp/c.json" 'len(d["program"]["without"]["samples"]) == 3 == len(d["program"]["with"]["samples"])')" = True ] &&
	[ "$(json "$tmp/c.json" 'all(d["program"][s][k][m] > 0 for s in ("without","with") for k in ("wall",) for m in ("median","min","max"))')" = True ] &&
	[ "$(json "$tmp/c.json" 'all(d["program"][s][k]["median"] >= 0 for s in ("without","with") for k in ("user","sys"))')" = True ] &&
	[ "$(json "$tmp/c.json" 'math.isfinite(d["program"]["ratio"]) and d["program"]["ratio"] > 0')" = True ] &&
	[ "$(json "$tmp/c.json" 'd["program"]["pair_ratios"]["min"] <= d["program"]["pair_ratios"]["median"] <= d["program"]["pair_ratios"]["max"]')" = True ] &&
	[ "$(json "$tmp/c.json" '0 <= d["program"]["p"] <= 1')" = True ] &&
	[ "$(json "$tmp/c.json" 'd["program"]["verdict"] in ("faster","slower","no difference")')" = True ] &&
	[ "$(json "$tmp/c.json" 'd["program"]["status"], d["program"]["check"], d["program"]["control"]')" = "('ok', 'not checked', False)" ] &&
	[ "$(json "$tmp/c.json" 'd["program"]["shim"]')" = "$(realpath "$shim")" ] &&
	[ "$(json "$tmp/c.json" 'd["machine"]["cpu"] != ""')" = True ]; then
	ok "the JSON holds every field"
else
	bad "the JSON: $(cat "$tmp/c.json" "$tmp/err" 2>&1 | head -c 2000)"
fi

# The ratio is the medians' quotient, and each pair's ratio its own runs'.
if [ "$(json "$tmp/c.json" 'abs(d["program"]["ratio"] - d["program"]["without"]["wall"]["median"] / d["program"]["with"]["wall"]["median"]) < 1e-6')" = True ] &&
	[ "$(json "$tmp/c.json" 'abs(sorted(a / b for a, b in zip(d["program"]["without"]["samples"], d["program"]["with"]["samples"]))[1] - d["program"]["pair_ratios"]["median"]) < 1e-6')" = True ]; then
	ok "the ratio and the pairs' ratios are the runs'"
else
	bad "the ratio is not the medians' quotient: $(head -c 600 "$tmp/c.json")"
fi

# CSV: a header and one row a side, as many fields in each.
if prog -q -n 2 -f csv -- "$copier" none >"$tmp/c.csv" 2>"$tmp/err" &&
	[ "$(wc -l <"$tmp/c.csv")" -eq 3 ] &&
	python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); assert len({len(x) for x in r}) == 1, r; assert r[1][1] == "without" and r[2][1] == "with", r; assert float(r[2][r[0].index("ratio")]) > 0' "$tmp/c.csv"; then
	ok "CSV: a header and one row a side"
else
	bad "CSV: $(cat "$tmp/c.csv" "$tmp/err")"
fi

# compare and plot take a program's results: two runs of the command, side by side.
if prog -q -n 3 -f json -o "$tmp/c2.json" -- "$copier" copy 20 2>"$tmp/err" &&
	"$cp" compare "$tmp/c.json" "$tmp/c2.json" >"$tmp/cmp" 2>"$tmp/err" &&
	grep -q 'a program run without and with the preload shim, 3 repeats' "$tmp/cmp" &&
	grep -Eq '^without the shim +user +.*copier copy 20 program +[0-9.]+ +[0-9.]+% +[0-9.]+ ' "$tmp/cmp" &&
	grep -Eq '^with the shim +user +.*copier copy 20 program +[0-9.]+ ' "$tmp/cmp"; then
	ok "compare: two runs of a program, each side's time per run"
else
	bad "compare of program results: $(cat "$tmp/cmp" "$tmp/err")"
fi
if "$cp" plot -o "$tmp/p.svg" "$tmp/c.json" "$tmp/c2.json" 2>"$tmp/err" &&
	grep -q 'time per run \[s\]' "$tmp/p.svg" && grep -q 'with the shim' "$tmp/p.svg"; then
	ok "plot: a program's runs as bars"
else
	bad "plot of program results: $(cat "$tmp/err")"
fi

# A program that copies nothing: still a finite ratio.
if prog -q -n 3 -f json -o "$tmp/n.json" -- "$copier" none 2>"$tmp/err" &&
	[ "$(json "$tmp/n.json" 'math.isfinite(d["program"]["ratio"]) and d["program"]["status"] == "ok"')" = True ]; then
	ok "a program that copies nothing"
else
	bad "a program that copies nothing: $(cat "$tmp/n.json" "$tmp/err")"
fi

# A program that exits 3: reported with its status and its last line on stderr, exit 1.
prog -q -n 3 -- "$copier" exit 3 >"$tmp/t" 2>"$tmp/err"
st=$?
if [ "$st" -eq 1 ] && grep -q '^FAILED: without the shim, the warm-up: exit 3: copier: exiting as asked$' "$tmp/t" &&
	grep -q '^FAILED: with the shim, the warm-up: exit 3' "$tmp/t" && grep -q '^no pair timed$' "$tmp/t" &&
	! grep -qi 'nan' "$tmp/t"; then
	ok "a program that exits 3: FAILED, exit 1"
else
	bad "a program that exits 3: exit $st: $(cat "$tmp/t" "$tmp/err")"
fi
prog -q -n 3 -f json -- "$copier" exit 3 >"$tmp/e.json" 2>/dev/null
if [ "$(json "$tmp/e.json" 'd["program"]["status"], d["program"]["without"]["exit_status"], d["program"]["with"]["exit_status"]')" = "('failed', 3, 3)" ]; then
	ok "a program that exits 3: its status in the JSON"
else
	bad "a program that exits 3, JSON: $(cat "$tmp/e.json")"
fi

# --check: the good shim leaves the output alone; the broken one does not; nor a program that
# prints whether it is preloaded.
if prog -q -n 1 --check -- "$copier" copy 3 >"$tmp/t" 2>"$tmp/err" && grep -q '^outputs: identical$' "$tmp/t"; then
	ok "--check: identical outputs with the shim"
else
	bad "--check with the shim: $(cat "$tmp/t" "$tmp/err")"
fi
prog -q -n 1 --check --shim "$broken" -- "$copier" copy 3 >"$tmp/t" 2>"$tmp/err"
st=$?
if [ "$st" -eq 1 ] && grep -q '^outputs: differ: first difference at byte' "$tmp/t" && grep -q '^FAILED: the outputs differ' "$tmp/t"; then
	ok "--check catches a shim that copies 1000 bytes wrongly"
else
	bad "--check with a broken shim: exit $st: $(cat "$tmp/t" "$tmp/err")"
fi
prog -q -n 1 --shim "$broken" -- "$copier" copy 3 >"$tmp/t" 2>"$tmp/err"
st=$?
if [ "$st" -eq 0 ] && grep -q '^outputs: not checked$' "$tmp/t"; then
	ok "without --check the outputs are not compared"
else
	bad "the broken shim without --check: exit $st: $(cat "$tmp/t" "$tmp/err")"
fi
prog -q -n 1 --check -- "$copier" env >"$tmp/t" 2>"$tmp/err"
st=$?
if [ "$st" -eq 1 ] && grep -q '^outputs: differ' "$tmp/t"; then
	ok "--check: the shim side really has the shim preloaded"
else
	bad "--check of a program printing LD_PRELOAD: exit $st: $(cat "$tmp/t" "$tmp/err")"
fi

# --aa: both sides without the shim.
if prog -q -n 2 --aa --check -f json -o "$tmp/a.json" -- "$copier" env 2>"$tmp/err" &&
	[ "$(json "$tmp/a.json" 'd["program"]["control"], d["program"]["check"]')" = "(True, 'identical')" ]; then
	ok "--aa: the program against itself"
else
	bad "--aa: $(cat "$tmp/a.json" "$tmp/err")"
fi

# --keep-output and --stdin: cat's output is its input, kept for each side.
printf 'line one\nline two\n' >"$tmp/in"
mkdir "$tmp/kept"
if prog -q -n 1 --check --stdin "$tmp/in" --keep-output "$tmp/kept" -- cat >"$tmp/t" 2>"$tmp/err" &&
	cmp -s "$tmp/in" "$tmp/kept/without-shim.out" && cmp -s "$tmp/in" "$tmp/kept/with-shim.out"; then
	ok "--stdin and --keep-output"
else
	bad "--stdin and --keep-output: $(ls "$tmp/kept"; cat "$tmp/t" "$tmp/err")"
fi

# Standard input is /dev/null by default: cat ends at once and prints nothing.
mkdir "$tmp/kept2"
if prog -q -n 1 --keep-output "$tmp/kept2" -- cat >"$tmp/t" 2>"$tmp/err" </dev/zero &&
	[ -f "$tmp/kept2/with-shim.out" ] && [ ! -s "$tmp/kept2/with-shim.out" ]; then
	ok "standard input is /dev/null"
else
	bad "standard input: $(cat "$tmp/t" "$tmp/err")"
fi

# --record: the program's memcpy and memmove calls recorded apart and replayed.  The last level
# given as 4 MiB (COPYPERF_LLC), so that the sets from memory (8 and 16 MiB) take a second or
# two where this machine's would take tens.
export COPYPERF_LLC=4M,4M
# the four ways each mix is replayed, as the JSON names their ratios
ways='("predicted_ratio", "predicted_ratio_chained", "predicted_ratio_tested", "predicted_ratio_chained_tested")'
if prog -q -n 1 --record -f json -o "$tmp/r.json" -- "$copier" copy 2 2>"$tmp/err" &&
	[ "$(json "$tmp/r.json" 'sorted(x["kind"] for x in d["program"]["recorded"])')" = "['memcpy', 'memmove']" ] &&
	[ "$(json "$tmp/r.json" 'all(x["calls"] >= 2 * 4096 for x in d["program"]["recorded"])')" = True ] &&
	[ "$(json "$tmp/r.json" 'all(list(x[k]) == ["l1", "l2", "llc", "stream", "cold"] for x in d["program"]["recorded"] for k in '"$ways"')')" = True ] &&
	[ "$(json "$tmp/r.json" 'all(math.isfinite(v) and v > 0 for x in d["program"]["recorded"] for k in '"$ways"' for v in x[k].values())')" = True ]; then
	ok "--record: memcpy's and memmove's calls replayed apart, independent and chained, tested or not"
else
	bad "--record: $(cat "$tmp/r.json" "$tmp/err" | head -c 2000)"
fi
# A command of several processes records in each: the prediction replays all their calls, the
# mixes of one process and of the next merged (one copy round, then two: three rounds' calls).
one=$(json "$tmp/r.json" '[x["calls"] for x in d["program"]["recorded"] if x["kind"] == "memcpy"][0] // 2')
if prog -q -n 1 --record -f json -o "$tmp/r3.json" -- sh -c '"$1" copy 1; "$1" copy 2' sh "$copier" 2>"$tmp/err" &&
	[ "$(json "$tmp/r3.json" 'all(x["processes"] >= 2 for x in d["program"]["recorded"])')" = True ] &&
	[ "$(json "$tmp/r3.json" "[x['calls'] >= 3 * $one for x in d['program']['recorded'] if x['kind'] == 'memcpy']")" = "[True]" ]; then
	ok "--record: every process's calls, merged"
else
	bad "--record of several processes: $(cat "$tmp/r3.json" "$tmp/err" | head -c 2000)"
fi
# Calls too small on average to walk a stream (mostly 0 bytes): the stream left out, null, the
# other working sets replayed.
if prog -q -n 1 --record -f json -o "$tmp/r4.json" -- "$copier" empty 2>"$tmp/err" &&
	[ "$(json "$tmp/r4.json" 'sorted(x["kind"] for x in d["program"]["recorded"])')" = "['memcpy', 'memmove']" ] &&
	[ "$(json "$tmp/r4.json" '[x[k]["stream"] for x in d["program"]["recorded"] for k in '"$ways"']')" = "[None, None, None, None, None, None, None, None]" ] &&
	[ "$(json "$tmp/r4.json" 'all(math.isfinite(v) for x in d["program"]["recorded"] for r in '"$ways"' for k, v in x[r].items() if k != "stream")')" = True ]; then
	ok "--record: a mix too small to stream, left out there"
else
	bad "--record of mostly empty copies: $(cat "$tmp/r4.json" "$tmp/err" | head -c 2000)"
fi
if prog -q -n 1 --record -- "$copier" copy 1 >"$tmp/t" 2>"$tmp/err" &&
	grep -q '^recorded memcpy calls: [0-9]* in 1 process, mean [0-9]* B, .*; replayed .*:$' "$tmp/t" &&
	grep -q '^  calls independent: l1 [0-9.]*x, l2 [0-9.]*x, llc [0-9.]*x, stream [0-9.]*x, cold [0-9.]*x$' "$tmp/t" &&
	grep -q '^  each waiting for the one before (--chain): l1 [0-9.]*x, l2 [0-9.]*x, llc [0-9.]*x, stream [0-9.]*x, cold [0-9.]*x$' "$tmp/t" &&
	grep -q "^  after the caller's tests of each size (--tested): l1 [0-9.]*x, l2 [0-9.]*x, llc [0-9.]*x, stream [0-9.]*x, cold [0-9.]*x$" "$tmp/t" &&
	grep -q '^  both (--chain --tested): l1 [0-9.]*x, l2 [0-9.]*x, llc [0-9.]*x, stream [0-9.]*x, cold [0-9.]*x$' "$tmp/t"; then
	ok "--record: the prediction in the table"
else
	bad "--record, table: $(cat "$tmp/t" "$tmp/err")"
fi
# Where the last level is the L2's size, llc and l2 are one working set: llc is left out, '-'.
l2=$(getconf LEVEL2_CACHE_SIZE 2>/dev/null || echo 0)
if [ "${l2:-0}" -gt 0 ]; then
	if COPYPERF_LLC=$l2,4M prog -q -n 1 --record -f json -o "$tmp/r2.json" -- "$copier" copy 1 >"$tmp/t" 2>"$tmp/err" &&
		[ "$(json "$tmp/r2.json" '[x[k]["llc"] for x in d["program"]["recorded"] for k in '"$ways"']')" = "[None, None, None, None, None, None, None, None]" ] &&
		[ "$(json "$tmp/r2.json" 'all(math.isfinite(v) for x in d["program"]["recorded"] for r in '"$ways"' for k, v in x[r].items() if k != "llc")')" = True ]; then
		ok "--record: llc left out where it is the L2's size"
	else
		bad "--record, llc the L2's size: $(cat "$tmp/r2.json" "$tmp/err" | head -c 2000)"
	fi
else
	echo "note: --record with llc the L2's size not tried: getconf gives no L2 size here"
fi
unset COPYPERF_LLC

# --counters: the share where perf can sample, else one line saying why not.
if prog -q -n 1 --counters -- "$copier" copy 20 >"$tmp/t" 2>"$tmp/err" &&
	grep -Eq '^time in the copy routines (\(perf record, [a-z-]+ samples\): [0-9.]+% without the shim, [0-9.]+% with it|: not measured: .+)$' "$tmp/t"; then
	ok "--counters: $(grep '^time in the copy' "$tmp/t")"
else
	bad "--counters: $(cat "$tmp/t" "$tmp/err")"
fi

# SIGINT stops the run at a pair's end: what was measured is reported, exit 130.
"$cp" program ${shim_opt:+"$shim_opt"} -q -n 100000 -- "$copier" copy 2 >"$tmp/t" 2>"$tmp/err" &
pid=$!
sleep 1
kill -INT "$pid"
# a copyperf that does not stop is killed, and fails the check, rather than hang the suite
(sleep 30; kill -KILL "$pid" 2>/dev/null) &
watchdog=$!
wait "$pid"
st=$?
kill "$watchdog" 2>/dev/null
if [ "$st" -eq 130 ] && grep -q '^interrupted after [1-9][0-9]* pairs\?$' "$tmp/t" && grep -q '^ratio [0-9.]*x' "$tmp/t"; then
	ok "SIGINT: the pairs done reported, exit 130"
else
	bad "SIGINT: exit $st: $(cat "$tmp/t" "$tmp/err")"
fi

# The default shim, where copyperf has one beside it: on x86-64 the AVX2 or SSE2 shim in
# glibc-hwcaps/x86-64-v3/ or x86-64-v2/ where the library copies with that variant, else the first.
dir=$(dirname "$(realpath "$cp")")
# shim_for ISA: the shim copyperf program preloads with COPYPERF_ISA=ISA.
shim_for() {
	COPYPERF_ISA=$1 "$cp" program -q -n 1 -f json -o "$tmp/s.json" -- "$copier" none 2>/dev/null &&
		json "$tmp/s.json" 'd["program"]["shim"]'
}
if [ -z "$shim_opt" ] && [ -e "$dir/glibc-hwcaps/x86-64-v3/libcopyperf-preload.so" ] &&
	"$cp" --list | grep -q '^copyperf_memcpy_avx2 '; then
	[ "$(shim_for avx2)" = "$dir/glibc-hwcaps/x86-64-v3/libcopyperf-preload.so" ] &&
		[ "$(shim_for sse2)" = "$dir/glibc-hwcaps/x86-64-v2/libcopyperf-preload.so" ] &&
		[ "$(shim_for generic)" = "$dir/libcopyperf-preload.so" ] &&
		ok "the default shim: the AVX2 or SSE2 one where the library copies with that variant, the first with the portable copy" ||
		bad "the default shim: $(shim_for avx2) with AVX2, $(shim_for sse2) with SSE2, $(shim_for generic) with the portable copy"
fi

# make bench-apps' table and its verdicts (scripts/bench-apps/run.py), on made-up results.
if /usr/bin/python3 "$(dirname "$0")/bench_apps_table.py" >"$tmp/apps" 2>&1; then
	ok "bench-apps' table and verdicts: $(grep -c '^ok' "$tmp/apps") cases"
else
	bad "bench-apps' table and verdicts: $(grep -v '^ok' "$tmp/apps" | head -5)"
fi

tally "program"
