#!/bin/sh
# make bench's program works: bad input is refused with exit 2 and one line naming it, and a
# short pooled run prints every table, row and verdict. How fast is not checked here.
# The same for make bench-walk's program.
# Usage: tests/bench/run.sh COPYBENCH COPYBENCH_WITH_BROKEN_ROUTINES SHARED_ROUTINES_SO WALK_GRID
. "$(dirname "$0")/../tally.sh"
. "$(dirname "$0")/../disassembly.sh"
bench=$1
broken=$2
shared=$3
walk=$4
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

refused_by() { # PROGRAM WHAT ARGS...: exit 2, one line on stderr that names WHAT
	prog=$1
	what=$2
	shift 2
	"$prog" "$@" >"$out" 2>"$err"
	rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -qF -- "$what" "$err"; then
		ok "$(basename "$prog") refused: $*"
	else
		bad "$(basename "$prog") $*: exit $rc, stderr: $(cat "$err")"
	fi
}
refused() { refused_by "$bench" "$@"; }
refused 0 -p 0
refused 52 -p 52
refused 2 -r 2
refused abc -r abc
refused -r -r
refused no-such-routine -c no-such-routine
refused foo sweep foo
refused "cannot open /no/such.so" -c /no/such.so:f
refused "has no symbol 'nosuch'" -C "$shared:nosuch"
refused 12Q -w 12Q
refused -w -w

# rows: NAME EXPECTED -- every size's row has GB/s, ratio, control and p
rows() {
	n=$(sed -n "/^$1:/,/geometric mean/p" "$out" |
		grep -cE '^ +[0-9]+ +[0-9.]+ \[.*\] +[0-9.]+ \[.*\] +[0-9.]+x +\[[0-9.]+-[0-9.]+\] +[0-9.]+x +[0-9.]+')
	if [ "$n" -eq "$2" ]; then ok "$1: $2 rows"; else bad "$1: $n rows, not $2"; fi
}
# mix_rows: NAME KIND SETS EXPECTED -- KIND's mixes (memcpy_0..8, _fleet) have a row at each
# working set SETS (a pattern) with ns per call, ratio and control
mix_rows() {
	n=$(grep -cE "^ +${2}_([0-8]|fleet) $3 +[0-9.]+ \[.*\] +[0-9.]+ \[.*\] +[0-9.]+x " "$out")
	if [ "$n" -eq "$4" ]; then ok "$1: $4 $2 rows"; else bad "$1: $n $2 rows, not $4"; fi
}

"$bench" -p 3 -r 3 sweep l1 >"$out" 2>"$err"
rc=$?
if [ $rc -le 1 ] && [ ! -s "$err" ]; then ok "3 processes: exit $rc"; else bad "3 processes: exit $rc, $(cat "$err")"; fi
grep -q '^(3 processes x 3 rounds' "$out" && ok "pooled header" || bad "no pooled header"
rows sweep 14
rows l1 5
[ "$(grep -cE '^  (sweep|l1): .* (met|NOT MET)$' "$out")" -eq 4 ] && ok "4 verdicts" || bad "verdicts missing"
grep -qE '^  sweep: none below 1\.00x +(met|NOT MET)$' "$out" && ok "sweep: the no-loss verdict" ||
	bad "sweep: no no-loss verdict"
# The summary: a line per table, its verdict NOT MET exactly where one of its targets is.
summary_agrees() { # TABLE...
	for t in "$@"; do
		line=$(sed -n '/^summary:/,$p' "$out" | grep -E "^$t +[0-9]+ ")
		if [ -z "$line" ]; then
			bad "summary: no line for $t"
		elif grep -qE "^  $t: .*NOT MET$" "$out"; then
			echo "$line" | grep -q ' NOT MET ' && ok "summary: $t NOT MET as its verdicts" ||
				bad "summary: $t says met: $line"
		else
			echo "$line" | grep -q ' met ' && ok "summary: $t met as its verdicts" ||
				bad "summary: $t says not met: $line"
		fi
	done
}
summary_agrees sweep l1
# exit status follows the verdicts
if grep -q 'NOT MET$' "$out"; then want=1; else want=0; fi
[ $rc -eq $want ] && ok "exit status follows the verdicts" || bad "exit $rc with verdicts $(grep -c 'NOT MET' "$out") not met"
# the A/A control: the C library against itself stays near 1 (0.5x..2x: a broken pairing would not)
controls=$(grep -oE '\] +[0-9.]+x +[0-9.]+( +below)?$' "$out" | awk '{ sub("x", "", $2); print $2 }')
if [ "$(echo "$controls" | wc -w)" -eq 19 ] &&
	echo "$controls" | awk '$1 < 0.5 || $1 > 2 { bad = 1 } END { exit bad }'; then
	ok "19 controls, all near 1"
else
	bad "controls missing or far from 1: $(echo $controls)"
fi

# The dist tables: every shipped mix at both working sets, ns per call, their verdicts.
"$bench" -p 2 -r 3 dist >"$out" 2>"$err"
rc=$?
if [ $rc -le 1 ] && [ ! -s "$err" ]; then ok "dist: exit $rc"; else bad "dist: exit $rc, $(cat "$err")"; fi
for kind in memcpy memmove; do
	mix_rows dist $kind '(l1|l2)' 20
	[ "$(grep -cE "^  dist $kind: (none below 1\.00x|l[12] (geometric mean|lowest) >= [0-9.]+x \([0-9.]+x\)) +(met|NOT MET)$" "$out")" -eq 5 ] &&
		ok "dist: 5 $kind verdicts" || bad "dist: $kind verdicts missing"
done
grep -q '^(2 processes x 3 rounds, interleaved; ns per call' "$out" && ok "dist: ns per call" || bad "dist: no unit"
# -w: dist-llc at the working set given, which its rows and verdicts name (a guest told its
# host's whole L3 has an LLC working set that is memory).
"$bench" -p 2 -r 3 -w 64K dist-llc >"$out" 2>"$err"
rc=$?
if [ $rc -le 1 ] && [ ! -s "$err" ]; then ok "dist-llc -w 64K: exit $rc"; else bad "dist-llc -w 64K: exit $rc, $(cat "$err")"; fi
# Beside each table, whether the last level held the set right after its rows: 64 KiB, in
# the L2 at most, reads faster than twice the L2 does, so it holds.
[ "$(grep -cE '^ +the set, 64 KiB, right after its rows: a random read 0\.[0-9]x one of [0-9]+ [KMG]iB \[[0-9.]+-[0-9.]+\]$' "$out")" -eq 2 ] &&
	[ "$(grep -cE '^ +\(median of the processes\): held in the last level \(held: within 3x' "$out")" -eq 2 ] &&
	ok "dist-llc -w 64K: the set held, read beside each table" || bad "dist-llc -w 64K: no reads of the set, or not held"
for kind in memcpy memmove; do
	mix_rows "dist-llc -w 64K" $kind 64K 10
	grep -qE "^  dist-llc 64K $kind: none below 1.00x +(met|NOT MET)$" "$out" &&
		ok "dist-llc -w 64K: the $kind verdict names it" || bad "dist-llc -w 64K: no $kind verdict"
	grep -qE "^  dist-llc 64K $kind: geometric mean >= 1.05x \([0-9.]+x\) +(met|NOT MET)$" "$out" &&
		ok "dist-llc -w 64K: the $kind geometric-mean verdict" ||
		bad "dist-llc -w 64K: no $kind geometric-mean verdict"
done
# Without -w: half the last level this CPU finds, measured once and named in one line.
env -u COPYPERF_LLC "$bench" -p 2 -r 3 dist-llc >"$out" 2>"$err"
rc=$?
if [ $rc -le 1 ] && [ ! -s "$err" ]; then ok "dist-llc: exit $rc"; else bad "dist-llc: exit $rc, $(cat "$err")"; fi
[ "$(grep -cE '^llc, cold: from (a last level of [0-9]+ [KMG]iB as measured|the last level the machine reports)' "$out")" -eq 1 ] &&
	ok "dist-llc: the last level's line" || bad "dist-llc: no line naming the last level"
mix_rows dist-llc memcpy llc 10
[ "$(grep -cE '^ +\(median of the processes\): (held in the last level|not held, partly from memory) ' "$out")" -eq 2 ] &&
	ok "dist-llc: whether the set held, beside each table" || bad "dist-llc: no word on the set"

# Every CPU copying: one row per size, the CPUs counted, a verdict per size.
"$bench" -p 1 -r 3 threads >"$out" 2>"$err"
rc=$?
if [ $rc -le 1 ] && [ ! -s "$err" ]; then ok "threads: exit $rc"; else bad "threads: exit $rc, $(cat "$err")"; fi
rows threads 9
grep -q "every CPU copying: $(nproc) CPUs" "$out" && ok "threads: $(nproc) CPUs" || bad "threads: CPUs not counted"
[ "$(grep -cE '^  threads: (none below 1\.00x|(64|128) MiB >= 1\.25x \([0-9.]+x\)) +(met|NOT MET)$' "$out")" -eq 3 ] &&
	ok "threads: 3 verdicts" || bad "threads: verdicts missing"
summary_agrees threads

# The seed's sweep flushed and from memory, copyperf's own buffers and checks; the repeated
# pointers at every placement; warm; a row each, a verdict on each row, and the summary.
"$bench" -p 2 -r 3 sweep-flush sweep-cold repeat warm >"$out" 2>"$err"
rc=$?
if [ $rc -le 1 ] && [ ! -s "$err" ]; then ok "sweep-flush sweep-cold repeat warm: exit $rc"; else bad "exit $rc, $(cat "$err")"; fi
rows sweep-flush 14
rows sweep-cold 14
rows warm 4
n=$(sed -n '/^repeat:/,/geometric mean/p' "$out" |
	grep -cE '^ +[0-9]+ B (page start|in page|src end|dst end|no page) +[0-9.]+ \[.*\] +[0-9.]+ \[.*\] +[0-9.]+x ')
[ "$n" -eq 57 ] && ok "repeat: 57 rows" || bad "repeat: $n rows, not 57"
for t in sweep-flush sweep-cold; do
	grep -qE "^  $t: geometric mean >= 1\.05x \([0-9.]+x\) +(met|NOT MET)$" "$out" && ok "$t: its target" ||
		bad "$t: no geometric-mean verdict"
done
summary_agrees sweep-flush sweep-cold repeat warm
# The seed's walk from other page offsets: every size at each placement a row, in order, and a
# copy wrong only where its destination is a line's last byte, which the sweep never meets,
# stopped there: at the first row that leaves its stray byte past the walk's end (64 B, the last
# pair of the destination's offsets).
"$bench" -p 2 -r 3 sweep-offsets >"$out" 2>"$err"
rc=$?
if [ $rc -le 1 ] && [ ! -s "$err" ]; then ok "sweep-offsets: exit $rc"; else bad "sweep-offsets: exit $rc, $(cat "$err")"; fi
want=$(for s in 8 16 32 64 128 256 512 1024 2048 4096 8192 16384 32768 65536; do
	for p in 'dst off' 'src off' 'both off' 'dst ahead'; do echo "$s B $p"; done
done)
got=$(sed -n '/^sweep-offsets:/,/geometric mean/p' "$out" |
	sed -nE 's/^ +([0-9]+ B (dst off|src off|both off|dst ahead)) +[0-9.]+ \[.*\] +[0-9.]+ \[.*\] +[0-9.]+x .*/\1/p')
[ "$got" = "$want" ] && ok "sweep-offsets: 56 rows, each size at each placement" ||
	bad "sweep-offsets: rows $(echo "$got" | wc -l), not each size at each placement in order"
grep -qE '^  sweep-offsets: none below 1\.00x +(met|NOT MET)$' "$out" && ok "sweep-offsets: the no-loss verdict" ||
	bad "sweep-offsets: no verdict"
summary_agrees sweep-offsets
"$broken" -p 1 -r 3 -c broken-line-end sweep >"$out" 2>"$err"
rc=$?
[ $rc -le 1 ] && ! grep -q 'copied wrongly' "$err" && ok "sweep: no destination at a line's last byte" ||
	bad "sweep with broken-line-end: exit $rc, $(cat "$err")"
"$broken" -p 1 -r 3 -c broken-line-end sweep-offsets >"$out" 2>"$err"
rc=$?
[ $rc -eq 1 ] && grep -qE "^copybench: broken-line-end copied wrongly at 64 B, source \+0, destination \+63: the first wrong byte at offset 65599$" "$err" &&
	! grep -q ' met$' "$out" && ok "a stray byte past the walk stops sweep-offsets" ||
	bad "sweep-offsets with broken-line-end: exit $rc, $(cat "$err")"
# -m: memmove against copyperf_memmove in every table.
"$bench" -p 1 -r 3 -m repeat threads >"$out" 2>"$err"
rc=$?
[ $rc -le 1 ] && grep -qE '^ +size, placement +memmove +copyperf_memmove ' "$out" &&
	grep -qE '^repeat memmove +57 ' "$out" && grep -qE '^threads memmove +9 ' "$out" &&
	ok "-m: memmove's contenders" || bad "-m: exit $rc, $(cat "$err")"
refused "-m" -m -c copyperf_memcpy repeat

# The mixes streamed (copyperf -w stream), at a small last level: each mix a row, two verdicts.
COPYPERF_LLC=1M "$bench" -p 1 -r 3 dist-stream >"$out" 2>"$err"
rc=$?
if [ $rc -le 1 ] && [ ! -s "$err" ]; then ok "dist-stream: exit $rc"; else bad "dist-stream: exit $rc, $(cat "$err")"; fi
for kind in memcpy memmove; do
	mix_rows dist-stream $kind stream 10
	grep -qE "^  dist-stream $kind: geometric mean >= 1\.10x \([0-9.]+x\) +(met|NOT MET)$" "$out" &&
		ok "dist-stream: the $kind target" || bad "dist-stream: no $kind target"
done

# The mixes chained (copyperf --chain), and after the caller's tests of each size (copyperf
# --tested), at L1 and L2: each mix and working set a row, no target.
for case in dist-chain dist-tested; do
	"$bench" -p 1 -r 3 $case >"$out" 2>"$err"
	rc=$?
	if [ $rc -le 1 ] && [ ! -s "$err" ]; then ok "$case: exit $rc"; else bad "$case: exit $rc, $(cat "$err")"; fi
	for kind in memcpy memmove; do
		mix_rows $case $kind 'l[12]' 20
		grep -qE "^  $case $kind: none below 1.00x +(met|NOT MET)$" "$out" &&
			ok "$case: the $kind verdict" || bad "$case: no $kind verdict"
	done
done

# --tested's tests are branches: at least one conditional jump a bit more than the untested pass.
if [ "$(uname -m)" = x86_64 ] && command -v objdump >/dev/null; then
	plain=$(conditional_jumps "$bench" measure_dist) tested=$(conditional_jumps "$bench" measure_dist_tested)
	[ "$tested" -ge $((plain + 8)) ] && ok "dist-tested: $tested conditional jumps, $plain untested" ||
		bad "dist-tested: $tested conditional jumps against $plain untested, not 8 more"
fi

"$bench" -p 1 -r 3 -c rep-movsb l1 >"$out" 2>"$err"
rc=$?
if [ $rc -le 1 ] && grep -q 'rep-movsb' "$out" && grep -q '^(3 rounds' "$out"; then
	ok "one process, another routine"
else
	bad "one process: exit $rc, $(cat "$err")"
fi
rows l1 5

# A copy that is fast because it is wrong meets nothing: the run stops, naming it.
for case in sweep sweep-offsets sweep-flush sweep-cold repeat chain l1 large warm threads dist dist-chain dist-tested; do
	"$broken" -p 1 -r 3 -c broken-short $case >"$out" 2>"$err"
	rc=$?
	if [ $rc -eq 1 ] && grep -q "^copybench: broken-short copied wrongly" "$err" && ! grep -q ' met$' "$out"; then
		ok "a wrong copy stops $case"
	else
		bad "a wrong copy in $case: exit $rc, stderr: $(cat "$err"), met: $(grep -c ' met$' "$out")"
	fi
done
# ... and in a stream of calls; and one wrong only near a page's end, in repeat's placements there.
COPYPERF_LLC=1M "$broken" -p 1 -r 3 -c broken-at-37 dist-stream >"$out" 2>"$err"
rc=$?
[ $rc -eq 1 ] && grep -q "^copybench: broken-at-37 copied wrongly on a call mix" "$err" && ! grep -q ' met$' "$out" &&
	ok "a wrong copy stops dist-stream" || bad "a wrong copy in dist-stream: exit $rc, $(cat "$err")"
"$broken" -p 1 -r 3 -c broken-page-end repeat >"$out" 2>"$err"
rc=$?
[ $rc -eq 1 ] && grep -qE "^copybench: broken-page-end copied wrongly at [0-9]+ B, source \+[0-9]+, destination \+40[6-9][0-9]" "$err" &&
	ok "a copy wrong near a page's end stops repeat" || bad "a wrong copy at a page's end: exit $rc, $(cat "$err")"
# ... and a routine wrong on overlapping buffers sits out memmove's mixes, as in copyperf -d.
"$bench" -p 1 -r 3 -c copyperf_memcpy dist >"$out" 2>"$err"
grep -q "^dist: not measured, copyperf_memcpy is not correct on overlapping buffers" "$out" &&
	! grep -q '^  dist memmove' "$out" && ok "memmove's mixes skipped for a memcpy" ||
	bad "memmove's mixes with a memcpy: $(grep -c memmove "$out") memmove lines"
# A routine far slower than the C library: its rows are below, its verdicts not met, exit 1.
"$bench" -p 1 -r 3 -c bytes sweep >"$out" 2>"$err"
rc=$?
if [ $rc -eq 1 ] && [ "$(grep -c ' below$' "$out")" -ge 10 ] && grep -q 'sweep: none below 1.00x .*NOT MET$' "$out"; then
	ok "a slow routine is below and fails"
else
	bad "a slow routine: exit $rc, $(grep -c ' below$' "$out") rows below"
fi
# A build of one's own from a shared object against another routine in the same process (-C):
# the control column is then the C library over -C's routine, and nothing is judged.
"$bench" -p 1 -r 3 -c "$shared:plain_move" -C bytes l1 >"$out" 2>"$err"
rc=$?
controls=$(sed -n '/^l1:/,/geometric mean/p' "$out" | grep -oE '\] +[0-9.]+x +[0-9.]+( +below)?$' |
	awk '{ sub("x", "", $2); print $2 }')
if [ $rc -eq 0 ] && grep -q "^ -C: the control here is instead the C library's time over bytes's" "$out" &&
	[ "$(grep -c 'not judged (-C)$' "$out")" -eq 2 ] && ! grep -qE ' (met|NOT MET)$' "$out" &&
	[ "$(echo "$controls" | wc -w)" -eq 5 ] && echo "$controls" | awk '$1 >= 0.5 { bad = 1 } END { exit bad }'; then
	ok "-c FILE:SYMBOL against -C bytes: its controls the C library over bytes"
else
	bad "-c FILE:SYMBOL -C bytes: exit $rc, controls $(echo $controls), $(cat "$err")"
fi
"$bench" -p 1 -r 3 -c "$shared:short_copy" l1 >"$out" 2>"$err"
rc=$?
[ $rc -eq 1 ] && grep -q "^copybench: $shared:short_copy copied wrongly" "$err" && ok "a wrong copy from a shared object" ||
	bad "a wrong copy from a shared object: exit $rc, $(cat "$err")"

# ---- walk_grid (make bench-walk) ----
walk_refused() { refused_by "$walk" "$@"; }
walk_refused "-p '0'" -p 0 memcpy copyperf_memcpy
walk_refused "-p '2x'" -p 2x memcpy copyperf_memcpy
walk_refused "-s 'x'" -s 8,x memcpy copyperf_memcpy
walk_refused "-s '65537'" -s 65537 memcpy copyperf_memcpy
walk_refused "-s: more than 16" -s 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17 memcpy copyperf_memcpy
walk_refused "-o '4097'" -o 4097 memcpy copyperf_memcpy
walk_refused "at least two" memcpy
walk_refused "nosuch: no such routine" memcpy nosuch
walk_refused "cannot open /no/such.so" memcpy /no/such.so:f
# Two processes, two offsets, two sizes: a row for each size and loop, a ratio for each routine.
"$walk" -p 2 -o 2048 -s 100,3000 memcpy copyperf_memcpy "$shared:plain_move" >"$out" 2>"$err"
rc=$?
rows=$(grep -cE '^ +(100|3000)  (test, call|call, test) +[0-9.]+( +[0-9.]+x \[[0-9.]+-[0-9.]+\]){2}$' "$out")
[ $rc -eq 0 ] && [ "$rows" -eq 4 ] && grep -q '0-2048 step 2048 .* 2 processes' "$out" && ok "walk_grid: 4 rows" ||
	bad "walk_grid: exit $rc, $rows rows: $(cat "$out" "$err")"
# A copy wrong at 4 KiB only is caught there, not at 100 B.
"$walk" -p 1 -o 4096 -s 100,4096 memcpy "$shared:short_copy" >"$out" 2>"$err"
rc=$?
[ $rc -eq 1 ] && grep -q "^walk_grid: $shared:short_copy copied 4096 B chunks wrongly: byte 4095, offset 0$" "$err" &&
	ok "walk_grid: a wrong copy" || bad "walk_grid, a wrong copy: exit $rc, $(cat "$err")"
tally copybench
