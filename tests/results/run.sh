#!/bin/sh
# SPDX-License-Identifier: MIT
# Tests of what copyperf makes of its results: compare, plot, --plot, the progress line,
# --counters and the manual page.
# usage: run.sh COPYPERF
set -u
COPYPERF=$(realpath "$1")
HERE=$(dirname "$0")
ROOT=$(realpath "$HERE/../..")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

. "$(dirname "$0")/../tally.sh"
# check DESCRIPTION COMMAND...: the command must succeed
check() { d=$1; shift; if "$@"; then ok; else bad "$d"; fi; }
# status_is DESCRIPTION EXPECTED COMMAND...: runs it (stdout to $T/out, stderr to $T/err)
status_is() {
	d=$1 want=$2; shift 2
	"$@" >"$T/out" 2>"$T/err"
	got=$?
	if [ "$got" = "$want" ]; then ok; else bad "$d: exit $got, expected $want"; cat "$T/err"; fi
}
# usage_error DESCRIPTION EXPECTED-TEXT COMMAND...: exit 2 and one stderr line saying it
usage_error() {
	d=$1 text=$2; shift 2
	status_is "$d" 2 "$@"
	if [ "$(wc -l <"$T/err")" = 1 ] && grep -qF -- "$text" "$T/err"; then ok; else
		bad "$d: stderr should be one line with '$text', was:"; cat "$T/err"; fi
}
has() { grep -qF -- "$1" "$2"; }
lacks() { ! grep -qF -- "$1" "$2"; }

python3 "$HERE/fixtures.py" "$T" || { echo "cannot write the fixtures"; exit 1; }
A=$T/A.json B=$T/B.json
RA=$T/RA.json RB=$T/RB.json
# edit IN OUT PYTHON: OUT is IN's JSON as d after the statements run
edit() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $3; json.dump(d, open(sys.argv[2],'w'))" "$1" "$2"; }

# ---- compare -------------------------------------------------------------------------------
status_is "compare without --threshold" 0 "$COPYPERF" compare "$A" "$B"
cp "$T/out" "$T/compare.txt"
check "compare names its test" has "Mann-Whitney U, two-sided" "$T/compare.txt"
check "the 10% slower routine: B/A 0.900, significant at every chunk" \
	test "$(grep -cE '^slower +user +[0-9]+ .* 0\.900 +0\.0079 \*$' "$T/compare.txt")" = 14
check "the unchanged routine: B/A 1.000, never significant" \
	test "$(grep -cE '^steady +user +[0-9]+ .* 1\.000 +1\.0000$' "$T/compare.txt")" = 14
check "the 8 B row shows both medians in MB/s" \
	grep -qE '^slower +user +8 +202\.3 +2\.0% +182\.1 +2\.0% +0\.900' "$T/compare.txt"
check "geometric mean of the slower routine" grep -qE '^slower +user +0\.900 +over 14' "$T/compare.txt"
check "geometric mean of the steady routine" grep -qE '^steady +user +1\.000 +over 14' "$T/compare.txt"
check "same options: no note" lacks "different options" "$T/compare.txt"
sed 's/"cache": "flush"/"cache": "hot"/' "$B" >"$T/hot.json"
status_is "compare runs with other options" 0 "$COPYPERF" compare "$A" "$T/hot.json"
check "other options: a note says so" has "note: A and B were measured with different options" "$T/out"
status_is "a significant 10% regression fails --threshold 5" 1 "$COPYPERF" compare --threshold 5 "$A" "$B"
check "and says how many points" has "threshold 5%: 14 points significantly below B/A = 0.950" "$T/out"
status_is "a 10% regression passes --threshold 15" 0 "$COPYPERF" compare "$A" "$B" --threshold 15
status_is "B faster than A passes --threshold 5" 0 "$COPYPERF" compare --threshold 5 "$B" "$A"
status_is "identical files pass --threshold 5" 0 "$COPYPERF" compare --threshold 5 "$A" "$A"
check "identical files: nothing significant" lacks " *" "$T/out"
check "identical files: every B/A is 1.000" \
	test "$(grep -cE ' 1\.000 +1\.0000$' "$T/out")" = 28

# Several runs a side: each run's median is one sample, so run-to-run noise is in the test.
status_is "4 runs against 4, 10% slower: fails --threshold 5" 1 "$COPYPERF" compare --threshold 5 "$A,$A,$A,$A" "$B,$B,$B,$B"
check "pooled: says so" has "20 repeats pooled from 4 runs" "$T/out"
check "pooled: the runs are the samples" has "on each run's median speed (the runs are the samples)" "$T/out"
check "pooled: the slower routine is a regression at every chunk" \
	test "$(grep -cE '^slower +user .* 0\.900 +0\.0[0-9]+ \* regression$' "$T/out")" = 14
status_is "3 runs against 3 can never be significant" 0 "$COPYPERF" compare --threshold 5 "$A,$A,$A" "$B,$B,$B"
check "3 runs against 3: a note says so" has "note: 3 runs against 3 can never differ with p < 0.05" "$T/out"
check "3 runs against 3: nothing marked" lacks " *" "$T/out"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["results"][0]; json.dump(d, open(sys.argv[2],"w"))' \
	"$A" "$T/A-less.json"
status_is "a point in only one run of a side" 0 "$COPYPERF" compare "$A,$T/A-less.json,$T/A-less.json,$T/A-less.json" "$B,$B,$B,$B"
check "a point in only one run of a side: a note says it was tested on repeats" \
	has "points in only one run of a side: 1 (tested on that run's repeats)" "$T/out"
check "pooled everywhere: no such note" sh -c '! "$0" compare "$1,$1,$1,$1" "$2,$2,$2,$2" | grep -q "only one run"' \
	"$COPYPERF" "$A" "$B"
status_is "the same runs on both sides" 0 "$COPYPERF" compare --threshold 5 "$A,$B" "$B,$A"
check "the same runs on both sides: every B/A is 1.000, p 1" test "$(grep -cE ' 1\.000 +1\.0000$' "$T/out")" = 28
usage_error "compare: empty name in a list" "empty file name in '$A,'" "$COPYPERF" compare "$A," "$B"
usage_error "compare: a missing file in a list" "cannot read '$T/nosuch.json'" "$COPYPERF" compare "$A,$T/nosuch.json" "$B"

usage_error "compare needs two files" "needs two results files" "$COPYPERF" compare "$A"
usage_error "compare: missing file" "cannot read '$T/nosuch.json'" "$COPYPERF" compare "$A" "$T/nosuch.json"
printf '{"tool":"copyperf",\n "results": [1,]}\n' >"$T/broken.json"
usage_error "compare: invalid JSON names the place" "is not valid JSON: line 2, column 16" \
	"$COPYPERF" compare "$A" "$T/broken.json"
# Valid JSON whose tree needs more memory than the process may have: named, not "copyperf: out of memory".
python3 -c 'import sys; sys.stdout.write("{\"tool\":\"copyperf\",\"pad\":[" + ",".join(["0"] * 8000000) + "],\"results\":[]}")' >"$T/huge.json"
usage_error "compare: a file too large for the memory allowed is named" "'$T/huge.json': out of memory reading it" \
	sh -c 'ulimit -v 300000 && exec "$@"' sh "$COPYPERF" compare "$A" "$T/huge.json"
rm -f "$T/huge.json"
echo '{"tool":"other","results":[]}' >"$T/other.json"
usage_error "compare: JSON that is not copyperf's" "is not copyperf results" "$COPYPERF" compare "$T/other.json" "$A"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["results"][3]["samples"]; json.dump(d, open(sys.argv[2],"w"))' \
	"$A" "$T/nosamples.json"
usage_error "compare: a result without samples" "result 4 (steady, chunk 8192) has no \"samples\"" \
	"$COPYPERF" compare "$T/nosamples.json" "$A"
usage_error "compare: --threshold must be a percentage" "--threshold: 'abc' is not a percentage" \
	"$COPYPERF" compare --threshold abc "$A" "$B"
usage_error "compare: --threshold 0 gates nothing" "--threshold: '0' is not a percentage" \
	"$COPYPERF" compare --threshold 0 "$A" "$B"

python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["results"][0]["samples"][2]=1e999; open(sys.argv[2],"w").write(json.dumps(d).replace("Infinity","1e999"))' \
	"$A" "$T/infinite.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["results"][0]["chunk"]=1e30; json.dump(d, open(sys.argv[2],"w"))' \
	"$A" "$T/hugechunk.json"
usage_error "compare: a chunk past 2^64" "result 1 lacks \"routine\", \"chunk\" or \"total\"" \
	"$COPYPERF" compare "$A" "$T/hugechunk.json"
usage_error "compare: a sample that is not a finite time" "result 1 (steady, chunk 65536): sample 3 is not a time > 0" \
	"$COPYPERF" compare "$A" "$T/infinite.json"
status_is "compare --help" 0 "$COPYPERF" compare --help
check "compare --help names --threshold" has "--threshold PCT" "$T/out"
usage_error "compare: unknown option" "unknown option '--bogus'" "$COPYPERF" compare --bogus "$A" "$B"
usage_error "compare: a missing value" "option '--threshold' needs a value" "$COPYPERF" compare "$A" "$B" --threshold

# Two real runs compare point for point.
"$COPYPERF" -q -s 4K-1K -t 256K -n 5 -r memcpy,copyperf_memcpy -f json -o "$T/r1.json" &&
	"$COPYPERF" -q -s 4K-1K -t 256K -n 5 -r memcpy,copyperf_memcpy -f json -o "$T/r2.json"
status_is "compare two real runs" 0 "$COPYPERF" compare "$T/r1.json" "$T/r2.json"
check "every point of two real runs is compared" test "$(grep -cE ' user +[0-9]+ .* [01]\.[0-9]{4}( \*)?$' "$T/out")" = 6

# ---- plot ----------------------------------------------------------------------------------
# svg_lines FILE: the key labels of the plotted lines, one a line (gnuplot's SVG groups each
# line as <g id="gnuplot_plot_N">, its label the first text inside)
svg_lines() {
	python3 - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()   # raises on XML that is not well formed
for g in root.iter(ns + "g"):
    if g.get("id", "").startswith("gnuplot_plot_"):
        t = next(g.iter(ns + "text"), None)
        print(t.text if t is not None else "?")
PY
}
status_is "plot one file" 0 "$COPYPERF" plot -o "$T/one.svg" "$A"
svg_lines "$T/one.svg" >"$T/lines" 2>"$T/svgerr" || { bad "plot: not well-formed SVG"; cat "$T/svgerr"; }
check "plot: one line per routine" test "$(cat "$T/lines" | tr '\n' '|')" = "steady (user)|slower (user)|"
check "plot: x axis labelled from 8 B" grep -q '>8 B<' "$T/one.svg"
check "plot: x axis labelled up to 64 KiB" grep -q '>64 KiB<' "$T/one.svg"
check "plot: the title names the machine" grep -qF 'Fixture CPU "quoted", Linux 6.1.0' "$T/one.svg"
check "plot: the title names the options" grep -qF 'cache flush, 32 MiB per point, two 64 KiB buffers, align 0:0, 5 repeats' "$T/one.svg"
status_is "plot two files" 0 "$COPYPERF" plot "$A" "$B" -o "$T/two.svg"
svg_lines "$T/two.svg" >"$T/lines" 2>/dev/null
check "plot: one line per routine and file" test "$(cat "$T/lines" | tr '\n' '|')" = \
	"steady (user, $A)|slower (user, $A)|steady (user, $B)|slower (user, $B)|"
status_is "plot --help" 0 "$COPYPERF" plot --help
check "plot --help shows its usage" has "usage: copyperf plot -o FILE.svg|FILE.png RESULTS.json..." "$T/out"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["results"]=[]; json.dump(d, open(sys.argv[2],"w"))' \
	"$A" "$T/empty.json"
usage_error "plot: nothing to draw is bad input" "no verified results to draw" \
	"$COPYPERF" plot -o "$T/empty.svg" "$T/empty.json"
status_is "plot a PNG" 0 "$COPYPERF" plot -o "$T/one.png" "$A"
check "plot: the PNG is a PNG" test "$(head -c 8 "$T/one.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a
usage_error "plot: other extensions" "'$T/x.pdf' must end in .svg or .png" "$COPYPERF" plot -o "$T/x.pdf" "$A"
usage_error "plot: no -o" "no -o FILE.svg|FILE.png given" "$COPYPERF" plot "$A"
usage_error "plot: no results" "no results file given" "$COPYPERF" plot -o "$T/x.svg"
usage_error "plot: unknown option" "unknown option '-x'" "$COPYPERF" plot -x -o "$T/x.svg" "$A"
usage_error "plot: a missing value" "option '-o' needs a value" "$COPYPERF" plot "$A" -o
usage_error "plot: bad JSON" "is not valid JSON" "$COPYPERF" plot -o "$T/x.svg" "$T/broken.json"
usage_error "plot without gnuplot says how to install it" "apt-get install gnuplot-nox" \
	env PATH="$T/empty" "$COPYPERF" plot -o "$T/x.svg" "$A"
usage_error "--plot without gnuplot fails before measuring" "apt-get install gnuplot-nox" \
	env PATH="$T/empty" "$COPYPERF" -s 4K -t 64K --plot "$T/x.svg"
check "nothing drawn without gnuplot" test ! -e "$T/x.svg"
usage_error "--plot: other extensions" "must end in .svg or .png" "$COPYPERF" -s 4K -t 64K --plot "$T/x.txt"

status_is "one run writes JSON and a plot" 0 "$COPYPERF" -q -s 64K-8 -t 256K -n 3 -r memcpy,copyperf_memcpy \
	-f json -o "$T/run.json" --plot "$T/run.svg"
check "the run's JSON reads back" "$COPYPERF" compare "$T/run.json" "$T/run.json" >/dev/null
svg_lines "$T/run.svg" >"$T/lines" 2>/dev/null
check "the run's plot: one line per routine" test "$(cat "$T/lines" | tr '\n' '|')" = "memcpy (user)|copyperf_memcpy (user)|"
check "the run's plot: its 14 sizes labelled" test "$(grep -oE '>[0-9]+ (B|KiB)<' "$T/run.svg" | sort -u | wc -l)" = 14

# ---- threads (-j) ----------------------------------------------------------------------------
# AJ: A's points on one thread (files from before -j carry no "threads") and again on two,
# twice the bytes in the same time: twice the aggregate speed.
edit "$A" "$T/AJ.json" 'import copy; two=[dict(copy.deepcopy(r), threads=2, total=2*r["total"]) for r in d["results"]]; d["results"] += two'
status_is "compare files with and without -j" 0 "$COPYPERF" compare "$A" "$T/AJ.json"
check "compare: a threads column" grep -qE '^routine +space +chunk \[B\] +threads +A MB/s' "$T/out"
check "compare: one thread lines up with a file from before -j" \
	test "$(grep -cE '^(steady|slower) +user +[0-9]+ +1 .* 1\.000 +1\.0000$' "$T/out")" = 28
check "compare: two threads are other points" has "points only in A: 0, only in B: 28" "$T/out"
status_is "compare -j files" 0 "$COPYPERF" compare "$T/AJ.json" "$T/AJ.json"
check "compare: every (chunk, threads) once" test "$(grep -cE '^(steady|slower) +user +[0-9]+ +[12] ' "$T/out")" = 56
status_is "plot several thread counts" 0 "$COPYPERF" plot -o "$T/threads.svg" "$T/AJ.json"
svg_lines "$T/threads.svg" >"$T/lines" 2>/dev/null
check "plot: throughput against threads" has "threads copying at once" "$T/threads.svg"
check "plot: a line per routine and chunk" test "$(grep -c ', chunk ' "$T/lines")" = 28
check "plot: the 4 KiB line" grep -qx 'steady (user, chunk 4 KiB)' "$T/lines"
status_is "plot one thread count" 0 "$COPYPERF" plot -o "$T/one-count.svg" "$A"
check "plot: one count stays against chunk size" lacks "threads copying at once" "$T/one-count.svg"

# ---- replayed call mixes -------------------------------------------------------------------
# RA and RB: "steady" and "slower" on memcpy_fleet and memmove_fleet at l1 and l2, seed 42;
# in RB "slower" takes 1/0.9 of RA's time at every repeat.
status_is "compare two replays" 0 "$COPYPERF" compare "$RA" "$RB"
cp "$T/out" "$T/rcompare.txt"
# A replay's config names no cache, buffer or alignment (null); files from before said flush, 64 KiB.
edit "$RA" "$T/rnull.json" 'd["config"].update(cache=None, buffer=None, align=None, sizes=None)'
edit "$RB" "$T/rold.json" 'd["config"].update(cache="flush", buffer=65536, align={"src": 0, "dst": 0})'
status_is "compare a replay of null options with an older one" 0 "$COPYPERF" compare "$T/rnull.json" "$T/rold.json"
check "replays compared across that change: no note of other options" lacks "different options" "$T/out"
check "replay compare: says what A is, with its seed" \
	has "A: $RA: Fixture CPU \"quoted\", Linux 6.1.0, recorded call mixes replayed, seed 42, 5 repeats" "$T/rcompare.txt"
check "replay compare: the time per call and which way B/A goes" \
	has "B/A: A's time over B's, a speed ratio; below 1: B is slower" "$T/rcompare.txt"
check "replay compare: tests the repeats' times" has "on the repeats' times per call within the run" "$T/rcompare.txt"
check "replay compare: columns name the distribution and working set" \
	grep -qE '^routine +space +distribution +working set +A ns/call +\+- +B ns/call +\+- +B/A +p$' "$T/rcompare.txt"
check "replay compare: the 10% slower routine is 0.900, significant at every point" \
	test "$(grep -cE '^slower +user +mem(cpy|move)_fleet +l[12] .* 0\.900 +0\.0079 \*$' "$T/rcompare.txt")" = 4
check "replay compare: the unchanged routine is 1.000, never significant" \
	test "$(grep -cE '^steady +user +mem(cpy|move)_fleet +l[12] .* 1\.000 +1\.0000$' "$T/rcompare.txt")" = 4
check "replay compare: both medians in ns per call" \
	grep -qE '^slower +user +memcpy_fleet +l1 +11\.96 +2\.0% +13\.29 +2\.0% +0\.900 ' "$T/rcompare.txt"
check "replay compare: geometric mean per routine" \
	grep -qE '^slower +user +0\.900 +over 4 distributions and working sets$' "$T/rcompare.txt"
check "replay compare: same seed and calls, no note" lacks "call lists" "$T/rcompare.txt"
edit "$RB" "$T/RB-seed7.json" 'd["config"]["seed"]=7'
status_is "compare replays of other seeds" 0 "$COPYPERF" compare "$RA" "$T/RB-seed7.json"
check "other seeds: one line says the call lists differ" \
	test "$(grep -c "call lists" "$T/out")" = 1
check "other seeds: the note names them" has "note: A and B replayed different call lists (seed 42 in A, 7 in B)" "$T/out"
check "other seeds: still compared" test "$(grep -cE ' 0\.900 +0\.0079 \*$' "$T/out")" = 4
edit "$RB" "$T/RB-calls.json" 'd["results"][0]["calls"]=8192'
status_is "compare replays of other calls per measurement" 0 "$COPYPERF" compare "$RA" "$T/RB-calls.json"
check "other calls: the note counts the points" \
	has "note: A and B replayed different call lists (other calls per measurement at 1 point)" "$T/out"
status_is "a 10% slower replay fails --threshold 5" 1 "$COPYPERF" compare --threshold 5 "$RA" "$RB"
check "replay --threshold: says how many points" has "threshold 5%: 4 points significantly below B/A = 0.950" "$T/out"
status_is "a 10% slower replay passes --threshold 15" 0 "$COPYPERF" compare --threshold 15 "$RA" "$RB"
status_is "4 replay runs against 4" 1 "$COPYPERF" compare --threshold 5 "$RA,$RA,$RA,$RA" "$RB,$RB,$RB,$RB"
check "pooled replays: says so" has "seed 42, 20 repeats pooled from 4 runs" "$T/out"
check "pooled replays: the runs are the samples" has "on each run's median time per call (the runs are the samples)" "$T/out"
check "pooled replays: the slower routine is a regression at every point" \
	test "$(grep -cE '^slower +user .* 0\.900 +0\.0[0-9]+ \* regression$' "$T/out")" = 4
# the same times per call from twice the calls: pooled, each run counts at its own scale
edit "$RA" "$T/RA-twice.json" 'rs=d["results"]; [r.update(calls=2*r["calls"], total=2*r["total"], samples=[2*t for t in r["samples"]]) for r in rs]'
status_is "pooling replays of other calls per measurement" 0 "$COPYPERF" compare "$RA,$T/RA-twice.json" "$RB,$RB"
check "pooled at one scale: the unchanged routine is still 1.000" \
	test "$(grep -cE '^steady +user .* 1\.000 +1\.0000$' "$T/out")" = 4
check "pooled at one scale: the slower one still 0.900" test "$(grep -cE '^slower +user .* 0\.900 +0\.[0-9]{4}$' "$T/out")" = 4
edit "$RA" "$T/RA-seed7.json" 'd["config"]["seed"]=7'
status_is "pooling replays of other seeds" 0 "$COPYPERF" compare "$RA,$T/RA-seed7.json" "$RB,$RB"
check "pooled other seeds: the side says its seeds vary" has "recorded call mixes replayed, seeds vary, 10 repeats" "$T/out"
check "pooled other seeds: the note says so" has "note: A and B replayed different call lists (seeds vary within A)" "$T/out"
edit "$RB" "$T/RB-failed.json" 'r=d["results"][4]; r["verified"]=False; r["error"]="wrong"; del r["samples"]'
status_is "compare a FAILED replay point" 0 "$COPYPERF" compare "$RA" "$T/RB-failed.json"
check "a FAILED replay point is named, not compared" \
	grep -qE '^slower +user +memcpy_fleet +l1 +not compared: FAILED in B$' "$T/out"
usage_error "compare: chunk results against replays" \
	"'$A' holds chunk results and '$RB' replayed call mixes: no point lines up" "$COPYPERF" compare "$A" "$RB"
usage_error "compare: replays against chunk results" \
	"'$B' holds chunk results and '$RA' replayed call mixes: no point lines up" "$COPYPERF" compare "$RA" "$B"
usage_error "compare: a side pooling both kinds" \
	"'$RA,$A' holds both chunk results and replayed call mixes: no point lines up" "$COPYPERF" compare "$RA,$A" "$RB"
edit "$RA" "$T/RA-nocalls.json" 'del d["results"][1]["calls"]'
usage_error "compare: a replay result without calls" \
	"result 2 lacks \"routine\", \"total\", \"working_set\", \"working_set_name\" or \"calls\"" \
	"$COPYPERF" compare "$T/RA-nocalls.json" "$RB"
edit "$RA" "$T/RA-badsample.json" 'd["results"][1]["samples"][0]=0'
usage_error "compare: a replay sample that is not a time" "result 2 (steady, memcpy_fleet l2): sample 1 is not a time > 0" \
	"$COPYPERF" compare "$T/RA-badsample.json" "$RB"
edit "$RA" "$T/RA-bigseed.json" 'd["config"]["seed"]=2**64-1'
"$COPYPERF" compare "$T/RA-bigseed.json" "$RB" >"$T/out" 2>&1
check "a 64-bit seed reads back exactly" has "seed 18446744073709551615, 5 repeats" "$T/out"

status_is "plot a replay" 0 "$COPYPERF" plot -o "$T/replay.svg" "$RA"
svg_lines "$T/replay.svg" >"$T/lines" 2>"$T/svgerr" || { bad "replay plot: not well-formed SVG"; cat "$T/svgerr"; }
check "replay plot: one series of bars per routine" test "$(cat "$T/lines" | tr '\n' '|')" = "steady (user)|slower (user)|"
for c in "memcpy_fleet l1" "memcpy_fleet l2" "memmove_fleet l1" "memmove_fleet l2"; do
	check "replay plot: a category '$c'" grep -qF ">$c<" "$T/replay.svg"
done
check "replay plot: the y axis is the time per call" grep -qF 'time per call [ns]: median, min-max bars' "$T/replay.svg"
check "replay plot: the title names the machine" grep -qF 'Fixture CPU "quoted", Linux 6.1.0' "$T/replay.svg"
check "replay plot: the title names the seed and repeats" grep -qF 'recorded call mixes replayed, seed 42, 5 repeats' "$T/replay.svg"
status_is "plot two replays" 0 "$COPYPERF" plot -o "$T/replays.png" "$RA" "$RB"
check "replay plot: the PNG is a PNG" test "$(head -c 8 "$T/replays.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a
status_is "plot two replays as SVG" 0 "$COPYPERF" plot -o "$T/replays.svg" "$RA" "$RB"
svg_lines "$T/replays.svg" >"$T/lines" 2>/dev/null
check "replay plot: one series per routine and file" test "$(cat "$T/lines" | tr '\n' '|')" = \
	"steady (user, $RA)|slower (user, $RA)|steady (user, $RB)|slower (user, $RB)|"
usage_error "plot: chunk results with replays" \
	"'$A' holds chunk results and '$RA' replayed call mixes: they cannot share one plot" \
	"$COPYPERF" plot -o "$T/mixed.svg" "$A" "$RA"
check "plot: nothing drawn of mixed kinds" test ! -e "$T/mixed.svg"

# ---- hostile and odd results files --------------------------------------------------------
# A file's strings never reach gnuplot as commands: a quote, a backslash, a line break or
# a datablock's end inside a name are text.
edit "$A" "$T/inj1.json" "d['machine']['cpu'] = 'x\\\\\"; system(\"touch $T/pwned1\") #'"
edit "$A" "$T/inj2.json" "d['machine']['kernel'] = 'k\nsystem(\"touch $T/pwned2\")\n'"
edit "$RA" "$T/inj3.json" "d['results'][0]['distribution'] = 'd\nEOD\nsystem(\"touch $T/pwned3\")\n'"
for i in 1 2 3; do
	status_is "plot of a file whose strings are commands ($i)" 0 "$COPYPERF" plot -o "$T/inj$i.svg" "$T/inj$i.json"
	check "the commands in file $i did not run" test ! -e "$T/pwned$i"
	check "plot of file $i is a whole SVG" grep -q '</svg>' "$T/inj$i.svg"
done
# A picture that cannot be written whole leaves the old file: gnuplot does not see its own
# write errors, copyperf writes what it prints.
echo OLD >"$T/old.svg"
status_is "plot past a file size limit fails" 1 prlimit --fsize=4096 "$COPYPERF" plot -o "$T/old.svg" "$A"
check "and says why in one line" test "$(grep -c "cannot write '$T/old.svg': File too large" "$T/err")" = 1
check "and leaves the old picture" test "$(cat "$T/old.svg")" = OLD
check "and no temporary file" test -z "$(find "$T" -name '.old.svg.*')"
echo OLD >"$T/old.json"
status_is "-o past a file size limit fails" 1 prlimit --fsize=1000 "$COPYPERF" -q -r memcpy,bytes \
	-s 64,4096 -t 1M -n 3 -f json -o "$T/old.json"
check "and leaves the old results" test "$(cat "$T/old.json")" = OLD
check "and no temporary file" test -z "$(find "$T" -name '.old.json.*')"
"$COPYPERF" -q -r memcpy -s 64 -t 64G -n 3 -f json -o "$T/hup.json" 2>"$T/err" &
pid=$!
sleep 1
kill -HUP $pid
wait $pid
check "SIGHUP stops a run as SIGTERM does (exit 129)" test $? = 129
check "and says so" grep -q "stopped by SIGHUP" "$T/err"
check "and leaves no file" test -z "$(find "$T" -name '*hup.json*')"
# A link to a file not yet made stays a link: the file it names is written.
ln -s made.json "$T/link.json"
status_is "-o through a dangling link" 0 "$COPYPERF" -q -r memcpy -s 64 -t 64K -n 1 -f json -o "$T/link.json"
check "the link is still a link" test -L "$T/link.json"
check "and the file it names is written" grep -q '"tool"' "$T/made.json"

edit "$A" "$T/twice.json" "d['results'].append(d['results'][3])"
usage_error "a point given twice is refused" "result 29 repeats result 4 (steady, chunk 8192)" \
	"$COPYPERF" compare "$T/twice.json" "$B"
edit "$A" "$T/tiny.json" "d['results'][0]['samples'][0] = 1e-320"
usage_error "a time whose speed is infinite is refused" "result 1 (steady, chunk 65536): sample 1 is not a time > 0" \
	"$COPYPERF" compare "$T/tiny.json" "$B"
edit "$A" "$T/threads.json" "d['results'][0]['threads'] = 4294967297"
usage_error "a thread count past 32 bits is refused" "result 1 lacks" "$COPYPERF" compare "$T/threads.json" "$B"
sed 's/"cache": "flush"/"cache": "hot"/' "$A" >"$T/hotA.json"
usage_error "runs pooled into one side share their options" \
	"'$A' and '$T/hotA.json' were measured with other options" "$COPYPERF" compare "$A,$T/hotA.json" "$B"
edit "$B" "$T/failB.json" "[r.update(verified=False) for r in d['results']]"
status_is "--threshold fails when B FAILED verification" 1 "$COPYPERF" compare --threshold 5 "$A" "$T/failB.json"
check "and says so" has "threshold: 28 points FAILED in B" "$T/out"
edit "$B" "$T/other.json" "[r.update(routine=r['routine'] + '2') for r in d['results']]"
status_is "--threshold fails when no point lines up" 1 "$COPYPERF" compare --threshold 5 "$A" "$T/other.json"
check "and says so" has "threshold: no point compared" "$T/out"
check "and counts what only B has" has "points only in A: 28, only in B: 28" "$T/out"
status_is "compare to a full device fails" 1 sh -c '"$0" compare "$1" "$2" >/dev/full' "$COPYPERF" "$A" "$B"
check "and says so" grep -q "cannot write the comparison" "$T/err"
# With an even count the median speed is the work over the median time, as the writers give it.
status_is "four repeats of a point" 0 "$COPYPERF" -q -r memcpy -s 4096 -t 1M -n 4 -f json -o "$T/even.json"
median=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print('%.1f' % (r['bytes_per_s']['median'] / 2**20))" "$T/even.json")
status_is "compare of four repeats" 0 "$COPYPERF" compare "$T/even.json" "$T/even.json"
check "shows the median the results file holds ($median MB/s)" grep -qE "^memcpy +user +4096 +$median " "$T/out"
# Tens of thousands of points: compared in time, and a plot of more lines than anyone can
# read is refused rather than drawn for minutes.
python3 - "$T/big.json" <<'PY'
import json, sys
rows = [{"routine": "r%d" % (i // 20), "space": "user", "chunk": 8 << (i % 20), "total": 1 << 20,
         "samples": [1e-3, 2e-3, 3e-3], "verified": True} for i in range(40000)]
json.dump({"tool": "copyperf", "machine": {}, "config": {"cache": "flush"}, "results": rows},
          open(sys.argv[1], "w"))
PY
status_is "compare of 40000 points within 20 s" 0 timeout 20 "$COPYPERF" compare "$T/big.json" "$T/big.json"
usage_error "plot of 2000 lines is refused" "more than 1000 lines to draw" \
	timeout 20 "$COPYPERF" plot -o "$T/big.svg" "$T/big.json"
edit "$A" "$T/many.json" "d['results'][0]['samples'] = [1e-3 + i * 1e-9 for i in range(100000)]"
status_is "compare of 100000 samples a point within 20 s" 0 timeout 20 "$COPYPERF" compare "$T/many.json" "$T/many.json"
# A file name that is not UTF-8 is written as JSON (U+FFFD), which reads back.
cp "$ROOT/data/distributions/Memcpy_0.csv" "$T/$(printf 'we"ird\\name\377.mix')"
status_is "-d of a file whose name is not UTF-8" 0 "$COPYPERF" -q -r memcpy -d "$T/$(printf 'we"ird\\name\377.mix')" \
	-w 16K -n 3 -f json -o "$T/weird.json"
check "gives JSON that Python reads" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$T/weird.json"
status_is "and copyperf reads back" 0 "$COPYPERF" compare "$T/weird.json" "$T/weird.json"
printf '{"tool":"copyperf","results":[],"machine":{"cpu":"\377"}}' >"$T/latin1.json"
usage_error "a results file that is not UTF-8 is refused" "line 1, column 51: a string that is not UTF-8" \
	"$COPYPERF" compare "$T/latin1.json" "$B"

# ---- progress ------------------------------------------------------------------------------
# `script` (util-linux) gives the command a pseudo-terminal; its stderr lands in the typescript.
RUN="'$COPYPERF' -s 64K-8 -t 1M -n 3 -r memcpy -o /dev/null"
script -qec "$RUN" /dev/null >"$T/tty.txt" 2>&1
check "progress on a terminal: done of total" grep -qE '\[#+\.*\] [0-9]+/56 measurements' "$T/tty.txt"
check "progress on a terminal: elapsed and time left" grep -qE 'measurements, ([0-9]+[hm])?[0-9]+s? elapsed, about ([0-9]+[hm])?[0-9]+s? left' "$T/tty.txt"
check "progress reaches the total" grep -qF '56/56 measurements' "$T/tty.txt"
check "progress line is cleared at the end" grep -qF "$(printf '\r\033[K')" "$T/tty.txt"
script -qec "$RUN -q" /dev/null >"$T/tty-quiet.txt" 2>&1
check "--quiet: no progress on a terminal" lacks "measurements" "$T/tty-quiet.txt"
sh -c "$RUN" 2>"$T/pipe-err.txt" | cat >/dev/null
# nothing but the clock's note (on 64 KiB points of 1 MiB)
check "no progress when stderr is not a terminal" only_clock_note "$T/pipe-err.txt"

# ---- counters ------------------------------------------------------------------------------
status_is "--counters runs" 0 "$COPYPERF" --counters -q -s 4K-1K -t 256K -r memcpy -f json -o "$T/c.json"
if [ -s "$T/err" ]; then
	# no counters here: one notice naming the option, and the results without them
	check "--counters unavailable: one line" test "$(wc -l <"$T/err")" = 1
	check "--counters unavailable: says so and goes on" grep -qE '^copyperf: --counters: .+; going on without them$' "$T/err"
	check "--counters unavailable: no counters in the results" lacks '"counters"' "$T/c.json"
	status_is "--counters table" 0 "$COPYPERF" --counters -q -s 4K -t 256K -r memcpy
	check "--counters unavailable: the table has no empty columns" lacks "cyc/B" "$T/out"
else
	python3 - "$T/c.json" <<'PY' && ok || bad "--counters: cycles per byte in every JSON result"
import json, sys
rs = json.load(open(sys.argv[1]))["results"]
assert len(rs) == 3 and all(r["counters"]["cycles_per_byte"] > 0 for r in rs)
assert all(abs(r["counters"]["bytes_per_cycle"] * r["counters"]["cycles_per_byte"] - 1) < 1e-6 for r in rs)
PY
	status_is "--counters table" 0 "$COPYPERF" --counters -q -s 4K -t 256K -r memcpy
	check "--counters: cycles per byte in the table" grep -qE 'yes +[0-9.]+ +[0-9.]+$' "$T/out"
fi

# ---- the manual page -----------------------------------------------------------------------
MAN=$ROOT/copyperf.1
mandoc -T lint -W warning "$MAN" >"$T/lint" 2>&1
check "copyperf.1 passes mandoc -T lint" test ! -s "$T/lint"
cat "$T/lint" # what lint found, if it found anything
for sub in "" plot compare program; do "$COPYPERF" $sub --help; done | grep -oE -- '--[a-z][a-z-]+' | sort -u >"$T/help-opts"
mandoc -T ascii "$MAN" | col -b | grep -oE -- '--[a-z][a-z-]+' | sort -u >"$T/man-opts"
check "copyperf.1 and the --help of copyperf and its subcommands name the same long options" diff "$T/help-opts" "$T/man-opts"
for opt in -r -s -t -b -c -a -n -f -o -q -h; do
	"$COPYPERF" --help | grep -qE -- "^  $opt, --" || continue
	mandoc -T ascii "$MAN" | col -b | grep -qE -- "^ +$opt, --" && ok || bad "copyperf.1 lacks $opt"
done
make -s -C "$ROOT" install DESTDIR="$T/root" PREFIX=/usr BUILD="$(dirname "$COPYPERF")" >/dev/null 2>"$T/install-err"
check "make install puts the manual in share/man/man1" cmp "$MAN" "$T/root/usr/share/man/man1/copyperf.1"

tally results
