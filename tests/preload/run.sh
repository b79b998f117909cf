#!/bin/sh
# test-preload: programs run with and without LD_PRELOAD=libcopyperf-preload.so give identical
# output, and the shim really provides memcpy, memmove and mempcpy when preloaded; with
# COPYPERF_RECORD=FILE it writes the program's memcpy calls to FILE.memcpy and its memmove calls
# to FILE.memmove (tests/preload/mix.c's known mix, checked call by call by check_mix.py), which
# copyperf -d replays.
# The shim's memcpy and memmove pass libcheck's checks, whichever way they copy: by themselves
# where the architecture lays them out (lib/<arch>/preload_entries.S), or through its C entries
# (another variant chosen, or calls recorded); their _chk entries stop a copy past the destination.
# On x86-64 the shims of the other variants (glibc-hwcaps/LEVEL/ beside the first) the same way,
# and the dynamic loader's choice among them for a shim preloaded by its name.
# Usage: run.sh PRELOAD_SO PROBE MIX COPYPERF (the command, which replays a recorded mix)
#        LINKED (a program linked against libcopyperf.so) LIBCHECK [ISA:LEVEL_SHIM...]
set -u
so=$(realpath "$1") probe=$2 mix=$(realpath "$3") copyperf=$(realpath "$4") linked=$(realpath "$5")
libcheck=$(realpath "$6")
check="python3 $(dirname "$0")/check_mix.py"
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../tally.sh"
# The variants the library can run on this CPU (--list names the others too, and says so).
"$copyperf" --list | grep -v '(not on this CPU)$' |
	sed -n 's/^copyperf_memcpy_\([a-z0-9_]*\) .*/\1/p' | tr _ - >"$tmp/variants"
# on_this_cpu ISA: true where this CPU runs that variant.
on_this_cpu() {
	grep -qx "$1" "$tmp/variants"
}

"$probe" >"$tmp/plain" && LD_PRELOAD=$so "$probe" >"$tmp/preloaded" &&
	[ -s "$tmp/plain" ] && cmp -s "$tmp/plain" "$tmp/preloaded" &&
	ok "probe: identical copies with and without the shim ($(wc -l <"$tmp/plain") lines)" ||
	bad "probe: output differs with the shim (diff $tmp/plain $tmp/preloaded)"
# The variant chosen by the environment under the shim too (its memcpy is that variant's memmove),
# where the library says this CPU has it.
if on_this_cpu avx512-branchless; then
	COPYPERF_ISA=avx512-branchless LD_PRELOAD=$so "$probe" >"$tmp/branchless" 2>"$tmp/err" &&
		cmp -s "$tmp/plain" "$tmp/branchless" && [ ! -s "$tmp/err" ] &&
		ok "probe: identical copies under the shim with COPYPERF_ISA=avx512-branchless" ||
		bad "probe: COPYPERF_ISA=avx512-branchless differs or warns: $(cat "$tmp/err")"
fi

LD_PRELOAD=$so "$probe" --where >"$tmp/where"
if [ "$(grep -c ": $so\$" "$tmp/where")" = 3 ]; then
	ok "probe: memcpy, memmove and mempcpy resolve to the shim"
else
	bad "probe: not every symbol resolves to $so: $(tr '\n' ' ' <"$tmp/where")"
fi
"$probe" --where >"$tmp/where-plain"
grep -q "libcopyperf" "$tmp/where-plain" &&
	bad "probe: resolves to libcopyperf without LD_PRELOAD" ||
	ok "probe: without LD_PRELOAD the C library provides them"

# The shim exports what it replaces and nothing else.
exports=$(nm -D --defined-only "$so" | awk '{ print $3 }' | sort | tr '\n' ' ')
[ "$exports" = "__memcpy_chk __memmove_chk __mempcpy __mempcpy_chk memcpy memmove mempcpy " ] &&
	ok "the shim exports the seven names it replaces, no more" || bad "the shim exports: $exports"
# run CMD [ARG...]: CMD, where $refuse_wx is set with no page of it allowed to be writable and
# executable.
refuse_wx=
run() {
	if [ -n "$refuse_wx" ]; then
		"$probe_path" --refuse-exec-gain "$@"
	else
		"$@"
	fi
}
probe_path=$(realpath "$probe")
# The shim's own entries, every size, offset and overlap, guard pages around them: as they copy by
# default, with another variant chosen (on x86-64 its C entries then), and while recording.
# checked LABEL [VAR=VALUE...]: libcheck on memcpy and memmove, in $rec (a recording is written there);
# the shim $shim_so, or $so.
checked() {
	label=$1
	shift
	in=${shim_so:-$so}
	(cd "$rec" && run env "$@" "$libcheck" "$in:memcpy:overlap" "$in:memmove:overlap") >"$tmp/libcheck" 2>&1 &&
		tail -n 1 "$tmp/libcheck" | grep -q '^[1-9][0-9]* passed, 0 failed$' &&
		ok "libcheck on ${shim_name:-the shim}'s memcpy and memmove, $label: $(tail -n 1 "$tmp/libcheck")" ||
		bad "libcheck on ${shim_name:-the shim}'s memcpy and memmove, $label: $(grep -E '^FAIL|libcheck:' "$tmp/libcheck" | head -5) $(tail -n 1 "$tmp/libcheck")"
}
rec=$tmp/rec && mkdir "$rec"
checked "as they copy by default"
for isa in generic $(cat "$tmp/variants"); do
	checked "COPYPERF_ISA=$isa" COPYPERF_ISA="$isa"
done
checked "recording" COPYPERF_RECORD=checked
[ -s "$rec/checked.memcpy" ] && [ -s "$rec/checked.memmove" ] &&
	ok "libcheck's calls through the shim while recording: both families recorded" ||
	bad "libcheck's calls through the shim while recording: files $(ls -A "$rec" | tr '\n' ' ')"
rm -rf "$rec"
# Where the architecture lays out the shim's entries, whether they copy by themselves: their gates
# open, the first 8 bytes of memcpy and of memmove those of the library's ladder, $ladder_fn, in
# the shim, where the library chose that ladder and nothing is recorded; shut, a 2-byte jump
# (0xeb) first.
# direct [VAR=VALUE...]: in a program run under the shim $shim_so, or $so, 1 where both gates are
# open, 0 where both are shut; and no page of its left both writable and executable.
direct() {
	in=${shim_so:-$so} gates=
	at=$(nm "$in" | awk -v fn="$ladder_fn" '$3 == "memcpy" || $3 == "memmove" || $3 == fn { print $3, $1 }' |
		sort | awk '{ print $2 }')
	bytes=$(run env "$@" LD_PRELOAD="$in" "$probe_path" --bytes $at)
	lib_bytes=$(printf '%s\n' "$bytes" | sed -n 1p)
	for entry in $(printf '%s\n' "$bytes" | sed -n '2,3p'); do
		case $entry in
		eb*) gates=${gates}0 ;;
		"$lib_bytes") gates=${gates}1 ;;
		*) gates="$gates($entry, not $lib_bytes)" ;;
		esac
	done
	wx=$(run env "$@" LD_PRELOAD="$in" "$probe_path" --writable-code)
	case $gates in
	11 | 00) [ -z "$wx" ] && echo "${gates%?}" || echo "pages writable and executable: $wx" ;;
	*) echo "memcpy's and memmove's gates $gates" ;;
	esac
}
# gates_shut_refused ISA: where the kernel refuses a page both writable and executable
# (PR_SET_MDWE), the gates of the shim $shim_so, or $so, stay shut with the ISA ladder chosen, and
# its memcpy and memmove pass libcheck through the routine the library chose.
gates_shut_refused() {
	"$probe_path" --refuse-exec-gain true 2>/dev/null
	if [ $? -eq 3 ]; then
		echo "note: ${shim_name:-the shim} where no page may be writable and executable: not checked, the kernel has no PR_SET_MDWE"
		return
	fi
	refuse_wx=1
	rec=$tmp/rec && mkdir "$rec"
	gates=$(direct COPYPERF_ISA="$1")
	[ "$gates" = 0 ] &&
		ok "${shim_name:-the shim}'s gates stay shut where no page may be writable and executable" ||
		bad "${shim_name:-the shim}'s gates where no page may be writable and executable: $gates (want 0)"
	checked "no page writable and executable" COPYPERF_ISA="$1"
	rm -rf "$rec"
	refuse_wx=
}
direct_at=$(nm "$so" | awk '$3 == "copyperf_preload_gates" { print $1 }')
if [ -n "$direct_at" ]; then
	ladder_fn=copyperf_memmove_avx512
	if on_this_cpu avx512; then ladder=1; else ladder=0; fi
	[ "$(direct)" = "$ladder" ] && [ "$(direct COPYPERF_ISA=avx512)" = "$ladder" ] &&
		[ "$(direct COPYPERF_ISA=avx2)" = 0 ] && [ "$(direct COPYPERF_ISA=generic)" = 0 ] &&
		[ "$(direct COPYPERF_RECORD="$tmp/direct" 2>/dev/null)" = 0 ] &&
		ok "the shim's entries copy by themselves where the AVX-512 ladder is chosen ($ladder here), not with another variant or recording" ||
		bad "the shim's entries' gates: $(direct) by default, $(direct COPYPERF_ISA=avx512) for avx512, $(direct COPYPERF_ISA=avx2) for avx2, $(direct COPYPERF_ISA=generic) for generic, $(direct COPYPERF_RECORD="$tmp/direct" 2>/dev/null) recording (want $ladder, $ladder, 0, 0, 0)"
	rm -f "$tmp"/direct.*
	[ "$ladder" = 0 ] || gates_shut_refused avx512
fi
# Each level's shim (ISA:FILE, after the first six arguments), where the CPU has its variant:
# libcheck on its entries by default (where the library chose another variant, through that
# one), with its variant chosen (by themselves) and recording; its gates open where the library
# chose its ladder; what it exports.
shift 6
for spec in "$@"; do
	isa=${spec%%:*} shim_so=$(realpath -s "${spec#*:}")
	level=$(basename "$(dirname "$shim_so")")
	if ! on_this_cpu "$isa"; then
		unset shim_so
		continue
	fi
	shim_name="the $level shim" ladder_fn=copyperf_memmove_$isa
	rec=$tmp/rec && mkdir "$rec"
	checked "as they copy by default"
	checked "COPYPERF_ISA=$isa" COPYPERF_ISA="$isa"
	checked "recording" COPYPERF_RECORD=checked
	[ -s "$rec/checked.memcpy" ] && [ -s "$rec/checked.memmove" ] &&
		ok "libcheck's calls through $shim_name while recording: both families recorded" ||
		bad "libcheck's calls through $shim_name while recording: files $(ls -A "$rec" | tr '\n' ' ')"
	rm -rf "$rec"
	if "$copyperf" --list | grep -q "^# copyperf_memcpy/copyperf_memmove: x86-64 $isa variant"; then
		ladder=1
	else
		ladder=0
	fi
	[ "$(direct)" = "$ladder" ] && [ "$(direct COPYPERF_ISA="$isa")" = 1 ] &&
		[ "$(direct COPYPERF_ISA=generic)" = 0 ] &&
		[ "$(direct COPYPERF_ISA="$isa" COPYPERF_RECORD="$tmp/direct" 2>/dev/null)" = 0 ] &&
		ok "$shim_name's entries copy by themselves where the $isa ladder is chosen ($ladder by default here), not with another variant or recording" ||
		bad "$shim_name's entries' gates: $(direct) by default, $(direct COPYPERF_ISA="$isa") for $isa, $(direct COPYPERF_ISA=generic) for generic, $(direct COPYPERF_ISA="$isa" COPYPERF_RECORD="$tmp/direct" 2>/dev/null) recording (want $ladder, 1, 0, 0)"
	rm -f "$tmp"/direct.*
	gates_shut_refused "$isa"
	exports=$(nm -D --defined-only "$shim_so" | awk '{ print $3 }' | sort | tr '\n' ' ')
	[ "$exports" = "__memcpy_chk __memmove_chk __mempcpy __mempcpy_chk memcpy memmove mempcpy " ] &&
		ok "$shim_name exports the seven names it replaces, no more" || bad "$shim_name exports: $exports"
	unset shim_name shim_so
done
# Preloaded by its name from the directory of the first, the shim the dynamic loader takes is the
# one for the CPU's best level, or the first where there is none: by default (AVX-512 here, the
# first through glibc-hwcaps/x86-64-v4/), and with AVX-512, then AVX2 too, hidden from the loader
# by GLIBC_TUNABLES. by_name [VAR=VALUE...]: the file memcpy resolves to.
if [ $# -gt 0 ]; then
	dir=$(dirname "$so")
	by_name() {
		env "$@" LD_LIBRARY_PATH="$dir" LD_PRELOAD=libcopyperf-preload.so "$probe" --where |
			awk '$1 == "memcpy:" { print $2 }'
	}
	hide=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW
	for tunables in "" "$hide" "$hide,-AVX2"; do
		best=$(GLIBC_TUNABLES=$tunables /lib64/ld-linux-x86-64.so.2 --help 2>/dev/null |
			awk '/ \(supported/ { print $1; exit }')
		want=$dir/glibc-hwcaps/$best/libcopyperf-preload.so
		[ -n "$best" ] && [ -e "$want" ] || want=$so
		got=$(by_name GLIBC_TUNABLES="$tunables")
		[ "$got" = "$want" ] &&
			ok "preloaded by its name, GLIBC_TUNABLES='$tunables': the shim for ${best:-no level} (${got#"$dir"/})" ||
			bad "preloaded by its name, GLIBC_TUNABLES='$tunables': memcpy from $got, not $want"
	done
	[ "$(realpath "$dir/glibc-hwcaps/x86-64-v4/libcopyperf-preload.so")" = "$so" ] &&
		ok "glibc-hwcaps/x86-64-v4/'s shim is the first" ||
		bad "glibc-hwcaps/x86-64-v4/libcopyperf-preload.so is not a link to the first shim"
fi
# The _chk entries: a copy that fits its destination exactly is made and returns it; a destination a
# byte too short is the C library's report and abort, as without the shim (no core file, in $tmp if
# one were written; the shell's own word on the abort to /dev/null).
# aborted OUT [VAR=VALUE...]: the overflow run of $family, its status printed.
aborted() {
	out=$1
	shift
	( (cd "$tmp" && ulimit -c 0 && exec env "$@" "$mix" overflow "$family") >"$out" 2>"$out.err"
		echo $?) 2>/dev/null
}
# The first shim's, and each level's shim's (the ISA:FILE arguments) as they copy by default.
for chk_so in "$so" $(for spec in "$@"; do echo "${spec#*:}"; done); do
	name=$([ "$chk_so" = "$so" ] && echo "the shim" || echo "the $(basename "$(dirname "$chk_so")") shim")
	for family in memcpy memmove; do
		plain=$(aborted "$tmp/overflow-plain")
		shim=$(aborted "$tmp/overflow-shim" LD_PRELOAD="$chk_so")
		[ "$plain" = 134 ] && [ "$shim" = 134 ] && [ "$(cat "$tmp/overflow-shim")" = "exact fit copied" ] &&
			grep -q 'buffer overflow detected' "$tmp/overflow-shim.err" &&
			ok "__${family}_chk in $name: an exact fit copied, a byte past the destination aborted with the C library's report, as without the shim" ||
			bad "__${family}_chk in $name: status $plain without the shim, $shim with it; $(cat "$tmp/overflow-shim" "$tmp/overflow-shim.err")"
	done
done

# A program linked against libcopyperf.so loads and copies under the shim, and an old
# binary's memcpy@GLIBC_2.2.5 (x86-64) stays a memmove.
libdir=$(dirname "$linked")/..
LD_LIBRARY_PATH=$libdir "$linked" >"$tmp/linked-plain" 2>&1 &&
	LD_LIBRARY_PATH=$libdir LD_PRELOAD=$so "$linked" >"$tmp/linked-shim" 2>&1 &&
	cmp -s "$tmp/linked-plain" "$tmp/linked-shim" && ! grep -q wrong "$tmp/linked-shim" &&
	ok "a program linked against libcopyperf.so: the same under the shim ($(tail -n 1 "$tmp/linked-shim"))" ||
	bad "a program linked against libcopyperf.so under the shim: $(cat "$tmp/linked-shim")"

# A program we did not write: sort moves its lines with memcpy/memmove.
awk 'BEGIN { srand(7); for (i = 0; i < 200000; i++) printf "%d %s\n", int(rand() * 1e9), substr("abcdefghijklmnopqrstuvwxyz", 1 + i % 26) }' >"$tmp/lines"
sort "$tmp/lines" >"$tmp/sorted" && LD_PRELOAD=$so sort "$tmp/lines" >"$tmp/sorted-shim" &&
	cmp -s "$tmp/sorted" "$tmp/sorted-shim" &&
	ok "sort: identical output with the shim" || bad "sort: output differs with the shim"
LD_DEBUG=bindings LD_PRELOAD=$so sort "$tmp/lines" 2>"$tmp/bindings" >/dev/null
grep -q "to $so .*symbol \`mem\(cpy\|move\|pcpy\)'" "$tmp/bindings" &&
	ok "sort: its memcpy/memmove calls bind to the shim (LD_DEBUG=bindings)" ||
	bad "sort: no memcpy/memmove binding to the shim in LD_DEBUG=bindings"

# ---- COPYPERF_RECORD ---------------------------------------------------------------------------
rec=$tmp/rec && mkdir "$rec"
# The recorder's thread pointer must be initial-exec TLS: one load, no call, no allocation.
nm -D "$so" | grep -q __tls_get_addr &&
	bad "the shim calls __tls_get_addr: some TLS is not initial-exec" ||
	ok "the shim's TLS is initial-exec (no __tls_get_addr)"
# Runs the rest of the line with the shim and COPYPERF_RECORD=$1, in $rec; stderr to $rec.err.
record() {
	file=$1
	shift
	(cd "$rec" && COPYPERF_RECORD=$file LD_PRELOAD=$so "$@" 2>"$tmp/rec.err")
}
# The files in $rec other than those named, a line each: what a test did not expect to be written.
others() {
	ls -A "$rec" | grep -vxF "$(printf '%s\n' "$@")"
}

"$mix" >"$tmp/mix-plain" && LD_PRELOAD=$so "$mix" >"$tmp/mix-shim" &&
	record known.mix "$mix" >"$tmp/mix-rec" && [ -s "$tmp/mix-plain" ] &&
	cmp -s "$tmp/mix-plain" "$tmp/mix-shim" && cmp -s "$tmp/mix-plain" "$tmp/mix-rec" &&
	ok "mix: the same output without the shim, with it, and recording" ||
	bad "mix: output differs (diff $tmp/mix-plain $tmp/mix-shim $tmp/mix-rec)"
$check known "$rec/known.mix" >"$tmp/check" 2>&1 &&
	ok "mix: known.mix.memcpy and known.mix.memmove hold the known mix exactly, each its family's calls and '# calls N' (4 + 2 threads, 600 sizes above 4096, 88 of them bucketed; overlapping memcpy calls with memmove's)" ||
	bad "mix: the files are not the known mix: $(head -5 "$tmp/check")"
[ ! -s "$tmp/rec.err" ] && [ -z "$(others known.mix.memcpy known.mix.memmove)" ] &&
	ok "mix: nothing on stderr, no temporary file left" ||
	bad "mix: stderr '$(cat "$tmp/rec.err")', files: $(others known.mix.memcpy known.mix.memmove | tr '\n' ' ')"
# The check itself: one call more or less in a file is caught.
sed 's/^# calls \([0-9]*\)$/# calls 1\1/' "$rec/known.mix.memmove" >"$tmp/off.memmove" &&
	cp "$rec/known.mix.memcpy" "$tmp/off.memcpy" && ! $check known "$tmp/off" >/dev/null &&
	ok "check_mix.py: a wrong '# calls N' is caught" || bad "check_mix.py: a wrong '# calls N' passes"

# The recording replayed, each file with the routines of its contract: FILE.memcpy by any
# routine, FILE.memmove only by those that allow overlap; -d FILE reads the two.
# replayed NAME ROUTINES: the JSON's (routine, distribution) pairs, sorted, all verified.
replayed() {
	python3 -c 'import json, os, sys
r = json.load(open(sys.argv[1]))["results"]
assert all(x["verified"] and x["calls"] > 0 for x in r), r
print(" ".join(sorted(x["routine"] + "@" + os.path.basename(x["distribution"]) for x in r)))' "$1"
}
(cd "$rec" && "$copyperf" -d known.mix.memcpy -r copyperf_memcpy -n 1 -q -w 16K -t 1M -f json) \
	>"$tmp/replay.json" 2>"$tmp/replay.err" &&
	[ "$(replayed "$tmp/replay.json")" = "copyperf_memcpy@known.mix.memcpy" ] &&
	ok "copyperf -d FILE.memcpy -r copyperf_memcpy: replayed, every call verified" ||
	bad "copyperf -d FILE.memcpy -r copyperf_memcpy: $(cat "$tmp/replay.err") $(head -c 300 "$tmp/replay.json")"
(cd "$rec" && "$copyperf" -d known.mix -r copyperf_memmove,memmove -n 1 -q -w 16K -t 1M -f json) \
	>"$tmp/replay.json" 2>"$tmp/replay.err" &&
	[ "$(replayed "$tmp/replay.json")" = "copyperf_memmove@known.mix.memcpy copyperf_memmove@known.mix.memmove memmove@known.mix.memcpy memmove@known.mix.memmove" ] &&
	ok "copyperf -d FILE -r copyperf_memmove,memmove: both files found, each replayed by both" ||
	bad "copyperf -d FILE -r copyperf_memmove,memmove: $(cat "$tmp/replay.err") $(replayed "$tmp/replay.json")"
(cd "$rec" && "$copyperf" -d known.mix -r copyperf_memcpy,memcpy -n 1 -q -w 16K -t 1M -f json) \
	>"$tmp/replay.json" 2>"$tmp/replay.err" &&
	[ "$(replayed "$tmp/replay.json")" = "copyperf_memcpy@known.mix.memcpy memcpy@known.mix.memcpy" ] &&
	grep -q 'not measured on the memmove mixes.*: copyperf_memcpy, memcpy$' "$tmp/replay.err" &&
	ok "copyperf -d FILE -r copyperf_memcpy,memcpy: the memcpy file replayed, the memmove file sat out, saying so" ||
	bad "copyperf -d FILE -r copyperf_memcpy,memcpy: $(cat "$tmp/replay.err") $(replayed "$tmp/replay.json")"

printf 'old\n' >"$rec/known.mix.memcpy"
printf 'old\n' >"$rec/known.mix.memmove"
record known.mix "$mix" >/dev/null && $check known "$rec/known.mix" >/dev/null &&
	ok "mix: existing files are replaced" || bad "mix: existing files are not replaced"
rm -f "$rec"/*

# memmove only: FILE.memmove alone, overlapping both ways and not, sizes small and large.
"$mix" moves >"$tmp/moves-plain" && record moves.mix "$mix" moves >"$tmp/moves-rec" &&
	cmp -s "$tmp/moves-plain" "$tmp/moves-rec" && [ ! -s "$tmp/rec.err" ] &&
	[ -z "$(others moves.mix.memmove)" ] &&
	$check calls "$rec/moves.mix.memmove" 24:15 5000:3 overlap=14 &&
	ok "memmove only: moves.mix.memmove alone, its 18 calls, 14 overlapping" ||
	bad "memmove only: files $(ls -A "$rec" | tr '\n' ' '), $($check calls "$rec/moves.mix.memmove" 24:15 5000:3 overlap=14)"
(cd "$rec" && "$copyperf" -d moves.mix -r copyperf_memmove,memmove -n 1 -q -w 16K -t 1M -f json) \
	>"$tmp/replay.json" 2>"$tmp/replay.err" &&
	[ "$(replayed "$tmp/replay.json")" = "copyperf_memmove@moves.mix.memmove memmove@moves.mix.memmove" ] &&
	ok "copyperf -d FILE -r copyperf_memmove,memmove finds FILE.memmove alone" ||
	bad "copyperf -d FILE, FILE.memmove alone: $(cat "$tmp/replay.err") $(replayed "$tmp/replay.json")"
rm -f "$rec"/*

(cd "$rec" && LD_PRELOAD=$so "$mix" >/dev/null && COPYPERF_RECORD= LD_PRELOAD=$so "$mix" >/dev/null) &&
	[ -z "$(ls -A "$rec")" ] && ok "unset or empty COPYPERF_RECORD: no file" ||
	bad "unset or empty COPYPERF_RECORD wrote $(ls -A "$rec")"

record /nonexistent/dir/f "$mix" exit 3
status=$?
[ $status = 3 ] && [ "$(cat "$tmp/rec.err")" = \
	"copyperf: COPYPERF_RECORD: cannot write '/nonexistent/dir/f.memcpy': No such file or directory" ] &&
	ok "unwritable file: one line on stderr, exit status 3 kept" ||
	bad "unwritable file: status $status, stderr '$(cat "$tmp/rec.err")'"
long=$(printf '%05000d' 0)
record "$long" "$mix" exit 5
status=$?
[ $status = 5 ] && [ "$(wc -l <"$tmp/rec.err")" = 1 ] && grep -q "': File name too long\$" "$tmp/rec.err" &&
	ok "a name longer than PATH_MAX: one line on stderr, exit status 5 kept" ||
	bad "a name longer than PATH_MAX: status $status, stderr '$(cut -c1-100 "$tmp/rec.err")...'"
mkdir "$rec/dir.memcpy"
record dir "$mix" exit 0
status=$?
[ $status = 0 ] && [ "$(cat "$tmp/rec.err")" = \
	"copyperf: COPYPERF_RECORD: cannot write 'dir.memcpy': Is a directory" ] && [ -z "$(others dir.memcpy)" ] &&
	ok "a directory in the way: one line on stderr, status 0 kept, no temporary file left" ||
	bad "a directory in the way: status $status, stderr '$(cat "$tmp/rec.err")', files: $(others dir.memcpy | tr '\n' ' ')"
rm -rf "$rec"/*

record none.mix "$mix" none
[ -z "$(ls -A "$rec")" ] && [ "$(cat "$tmp/rec.err")" = \
	"copyperf: COPYPERF_RECORD: no memcpy, memmove or mempcpy call recorded; 'none.mix' not written" ] &&
	ok "no call recorded: no file, one line on stderr" ||
	bad "no call recorded: stderr '$(cat "$tmp/rec.err")', files: $(ls -A "$rec")"
record quick.mix "$mix" _exit
[ -z "$(ls -A "$rec")" ] && [ ! -s "$tmp/rec.err" ] &&
	ok "_exit: nothing written, nothing said (documented)" || bad "_exit: $(ls -A "$rec")"

child=$(record fork.mix "$mix" fork) && $check calls "$rec/fork.mix.memcpy" 5:4 &&
	[ -z "$(others fork.mix.memcpy)" ] &&
	ok "fork: the parent's file has its own 4 calls; the child (no %p) writes nothing" ||
	bad "fork: child $child, files: $(ls -A "$rec")"
rm -f "$rec"/*
child=$(record 'fork.%p' "$mix" fork) && parent=$(ls "$rec" | grep -vxF "fork.$child.memcpy") &&
	$check calls "$rec/$parent" 5:4 && $check calls "$rec/fork.$child.memcpy" 9:2 &&
	[ -z "$(others "$parent" "fork.$child.memcpy")" ] &&
	ok "fork with %p: the parent's 4 calls in $parent, the child's own 2 in fork.<its pid>.memcpy" ||
	bad "fork with %p: child $child, files: $(ls -A "$rec")"
rm -f "$rec"/*

# A child of the raw system call runs no fork handler: its counts are its parent's too.
child=$(record 'raw.%p' "$mix" rawfork) && parent=$(ls "$rec" | grep -vxF "raw.$child") &&
	$check calls "$rec/$parent" 5:4 && [ -z "$(others "$parent")" ] && [ "$(cat "$tmp/rec.err")" = \
	"copyperf: COPYPERF_RECORD: a child made without fork(3) holds its parent's counts; not written" ] &&
	ok "a child made without fork(3): the parent's 4 calls in $parent; the child writes nothing, says why" ||
	bad "raw fork: child $child, files: $(ls -A "$rec"), stderr '$(cat "$tmp/rec.err")'"
rm -f "$rec"/*

# A file size limit: the write fails (EFBIG), the program is not killed by SIGXFSZ.
said=$(cd "$rec" && COPYPERF_RECORD=fs.mix LD_PRELOAD=$so "$mix" fsize 4 2>&1 >/dev/null; echo "status $?")
[ "$said" = "copyperf: COPYPERF_RECORD: cannot write 'fs.mix.memcpy': File too large
status 4" ] && [ -z "$(ls -A "$rec")" ] &&
	ok "a file size limit of 0: one line on stderr, exit status 4 kept, no file left" ||
	bad "a file size limit of 0: '$said', files: $(ls -A "$rec")"

# The shim dlopen'ed and dlclose'd while a thread that copied is still to exit: no crash.
(cd "$rec" && COPYPERF_RECORD=dl.mix "$mix" dlclose "$so" >"$tmp/dl" 2>"$tmp/rec.err") &&
	[ "$(cat "$tmp/dl")" = survived ] && $check calls "$rec/dl.mix.memcpy" 4:1 &&
	ok "the shim unloaded by dlclose before a thread exits: no crash, its call recorded" ||
	bad "dlclose: status $?, output '$(cat "$tmp/dl")', stderr '$(cat "$tmp/rec.err")'"
rm -f "$rec"/*

# Destructors that copy and re-arm (as jemalloc's do) after the recorder's: without the care
# taken each such thread would keep a block of its own, hundreds of MB for these 2000 threads.
set -- $(record late.mix "$mix" late 2000)
[ $# = 2 ] && [ "$1" -lt 2048 ] && $check calls "$rec/late.mix.memcpy" 13:6000 "7:$2" &&
	ok "2000 threads whose exit copies after the recorder's: all calls, memory grew by $1 KiB" ||
	bad "late copies at thread exit: '$*', or the file is wrong"
rm -f "$rec"/*

# Without taking over exited threads' counters this would grow by a few pages a thread.
grew=$(record threads.mix "$mix" threads 2000) && [ "$grew" -lt 2048 ] &&
	$check calls "$rec/threads.mix.memcpy" 13:6000 &&
	ok "2000 threads one after the other: all 6000 calls, resident memory grew by $grew KiB" ||
	bad "2000 short threads: resident memory grew by $grew KiB, or the file is wrong"
rm -f "$rec"/*

# Exact here: on x86-64 a count is one instruction, which a signal cannot split (lib/record.c).
handled=$(record signals.mix "$mix" signals) && [ ! -s "$tmp/rec.err" ] &&
	$check calls "$rec/signals.mix.memcpy" 24:2000000 "40:$handled" &&
	ok "copies in a signal handler, $handled of them amid 2000000: each counted once, no deadlock" ||
	bad "signal handler copies: handled '$handled', $(cat "$tmp/rec.err")"
rm -f "$rec"/*

mkdir "$rec/elsewhere"
record moved.mix "$mix" chdir elsewhere && $check calls "$rec/moved.mix.memcpy" 5:1 &&
	ok "a program that changes directory writes where it started" ||
	bad "chdir: files: $(ls -AR "$rec")"
rm -rf "$rec"/*

# sort with threads of its own, and python: real programs, both families.
# wellformed_all BASE: BASE.memcpy and BASE.memmove, those there are, well formed; at least one.
wellformed_all() {
	set -- "$1.memcpy" "$1.memmove"
	[ -e "$1" ] || [ -e "$2" ] || return 1
	for f; do
		[ ! -e "$f" ] || $check wellformed "$f" || return 1
	done
}
record sort.mix sort --parallel=4 -S 1M "$tmp/lines" >"$tmp/sorted-rec" &&
	cmp -s "$tmp/sorted" "$tmp/sorted-rec" && wellformed_all "$rec/sort.mix" &&
	[ -z "$(others sort.mix.memcpy sort.mix.memmove)" ] &&
	ok "sort --parallel=4: same output recording, well-formed files ($(cd "$rec" && echo sort.mix.*))" ||
	bad "sort --parallel=4 recording: output or file wrong: $(ls -A "$rec" | tr '\n' ' ')"
py='import json, zlib; d = json.dumps({str(i): list(range(i)) for i in range(300)}); print(len(d), zlib.crc32(d.encode()))'
python3 -c "$py" >"$tmp/py-plain" && record py.mix python3 -c "$py" >"$tmp/py-rec" &&
	cmp -s "$tmp/py-plain" "$tmp/py-rec" && $check wellformed "$rec/py.mix.memcpy" &&
	$check wellformed "$rec/py.mix.memmove" &&
	ok "python3: same output recording, two well-formed files ($(sed -n 's/^# calls //p' "$rec/py.mix.memcpy") memcpy calls, $(sed -n 's/^# calls //p' "$rec/py.mix.memmove") memmove calls)" ||
	bad "python3 recording: output or file wrong: $(ls -A "$rec" | tr '\n' ' ') $($check wellformed "$rec/py.mix.memcpy" 2>&1 | head -3) $($check wellformed "$rec/py.mix.memmove" 2>&1 | head -3)"
# The program's own mixes replayed: every call of them verified, for the C library and copyperf.
"$copyperf" -q -d "$rec/py.mix" -w 16K -n 1 -t 1M -r memmove,copyperf_memmove -f json \
	>"$tmp/replay.json" 2>"$tmp/replay.err" &&
	[ "$(replayed "$tmp/replay.json")" = "copyperf_memmove@py.mix.memcpy copyperf_memmove@py.mix.memmove memmove@py.mix.memcpy memmove@py.mix.memmove" ] &&
	ok "copyperf -d replays python3's recorded mixes, every call verified" ||
	bad "copyperf -d on python3's mixes: $(cat "$tmp/replay.err") $(head -c 300 "$tmp/replay.json")"

tally
