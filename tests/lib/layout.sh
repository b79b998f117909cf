#!/bin/sh
# SPDX-License-Identifier: MIT
# The ladders' layout, written by hand in assembly: the AVX-512 entries' path
# for 0-31 bytes, from the entry to its ret, lies in the entry's first two
# 64-byte lines (lib/x86_64/copy_avx512_ladder.S): each mispredicted size
# test fetches the path again, two lines and not three; the page test's
# branch and the size tests of the calls it refuses share a line, so that a
# copy at a page's end fetches no line more for them. The SSE2 and AVX2
# entries (lib/x86_64/vec_ladder.inc) start a line that holds their first
# block, to its ret; their size tests below a vector start the next line and
# hold the 0-3 byte block to its ret; the 8-15 byte block starts the line
# after, and the 4-7 and 16-31 byte blocks lie in it too: no block and no
# test with its jump spans two lines, which a size repeated would pay for at
# every call.
# The preload shim's memcpy and memmove (lib/x86_64/preload_entries.S) are
# the library's AVX-512 ladder byte for byte once their gates are open: each
# starts with its gate, a 2-byte jump to its way out, and past it holds the
# library's instructions at their offsets, so the same rules. The AVX2 and
# SSE2 shims' are the library's ladders in the same way. The SSE2 shim's
# entries use no ymm register (its CPUs may have no AVX).
# An edit that lays a path out otherwise fails here, not silently in a
# benchmark.
# Usage: layout.sh LIBRARY.so [PRELOAD_SHIM.so [LEVEL_PRELOAD_SHIM.so...]]
set -eu
so=$1
shim=${2:-}
shift $(($# < 2 ? $# : 2))
command -v objdump >/dev/null || { echo "layout.sh: objdump not found (Debian package binutils)" >&2; exit 1; }
status=0
# body_of FN [SO]: the function's instructions as "address mnemonic operands", addresses in
# hex; SO: the library unless given.
body_of() {
	objdump -d --no-show-raw-insn --disassemble="$1" "${2:-$so}" | awk -v fn="$1" '
		$0 ~ "<" fn ">:$" { print $1; on = 1; next }
		on && /^ *[0-9a-f]+:/ { sub(":", "", $1); print }
		on && /^$/ { exit }'
}
# after TEST: the address and the target of the jump that follows the test TEST (its mnemonic
# and operands as objdump prints them) in $body: "jae 71c0 <...>" at 71bc gives "71bc 71c0".
after() {
	printf '%s\n' "$body" | awk -v test="$1" '
		prev == test && $2 ~ /^j/ { print $1, $3; exit }
		{ prev = $2 " " $3 }'
}
# block_end ADDR: the address of the first ret at or after ADDR in $body; nothing if none.
block_end() {
	for r in $(printf '%s\n' "$body" | awk 'NR > 1 && $2 ~ /^retq?$/ { print $1 }'); do
		if [ $((0x$r)) -ge $((0x$1)) ]; then
			echo "$r"
			return
		fi
	done
}
# line_of ADDR: the 64-byte line that holds the address ADDR (a number).
line_of() { echo $(($1 / 64)); }
# vec_entry NAME FN: the SSE2 or AVX2 ladder's rules for the entry FN in $body (NAME: where it
# is, for the messages); the vector's width from the entry's first size test.
vec_entry() {
	entry=$(printf '%s\n' "$body" | sed -n 2p | awk '{ print $1 }')
	ret=$(block_end "${entry:-0}")
	v=$(printf '%s\n' "$body" | awk '$2 == "cmp" && $3 ~ /,%rdx$/ { sub(/^\$/, "", $3); sub(/,.*/, "", $3); print $3; exit }')
	under=$(after "cmp \$$v,%rdx")
	to_8=$(after 'cmp $0x8,%edx') to_4=$(after 'cmp $0x4,%edx')
	to_16=$( [ "$v" = 0x20 ] && after 'cmp $0x10,%edx' || echo "$to_8")
	if [ -z "$entry" ] || [ -z "$ret" ] || [ -z "$under" ] || [ -z "$to_16" ] || [ -z "$to_8" ] || [ -z "$to_4" ]; then
		echo "layout.sh: $1's $2: not found, or a size test missing" >&2
		status=1
		return
	fi
	if [ "$v" = 0x10 ] && printf '%s\n' "$body" | grep -q '%ymm'; then
		echo "layout.sh: $1's $2: 16-byte vectors, but a ymm register:" >&2
		printf '%s\n' "$body" | grep '%ymm' | head -3 >&2
		status=1
	fi
	tests=$((0x${under#* })) blocks=$((0x${to_8#* }))
	small_ret=$(block_end "${under#* }")
	bad=
	[ $((0x$entry % 64)) -eq 0 ] && [ $((0x$ret - 0x$entry)) -lt 64 ] || bad="the entry (0x$entry) and its first ret (0x$ret) do not share a line"
	[ -n "$bad" ] || [ $((tests % 64)) -eq 0 ] || bad="the size tests below $((v)) bytes (0x${under#* }) do not start a line"
	# The tests come before the 0-3 byte block: its ret in their line holds them there too.
	[ -n "$bad" ] || { [ -n "$small_ret" ] && [ "$(line_of $((0x$small_ret)))" -eq "$(line_of $tests)" ]; } ||
		bad="the 0-3 byte block's ret (0x$small_ret) leaves the tests' line (0x${under#* })"
	[ -n "$bad" ] || [ $((blocks % 64)) -eq 0 ] || bad="the 8-15 byte block (0x${to_8#* }) does not start a line"
	for jump in "$to_16" "$to_8" "$to_4"; do
		target=$((0x${jump#* })) end=$(block_end "${jump#* }")
		[ -n "$bad" ] || { [ -n "$end" ] && [ "$(line_of $target)" -eq "$(line_of $blocks)" ] &&
			[ "$(line_of $((0x$end)))" -eq "$(line_of $blocks)" ]; } ||
			bad="the block at 0x${jump#* } (its ret 0x$end) does not lie in the 8-15 byte block's line"
	done
	if [ -n "$bad" ]; then
		echo "layout.sh: $1's $2: $bad" >&2
		printf '%s\n' "$body" | sed -n '1,60p' >&2
		status=1
	else
		echo "layout.sh: $1's $2: the first block in the entry's line, the tests below $((v)) bytes and 0-3 bytes in the next, the 4-7, 8-15$([ "$v" = 0x20 ] && echo " and 16-31") byte blocks in the line after"
	fi
}
for fn in copyperf_memcpy_sse2 copyperf_memmove_sse2 copyperf_memcpy_avx2 copyperf_memmove_avx2; do
	body=$(body_of "$fn")
	vec_entry "the library" "$fn"
done
# avx512_entry SO FN [BODY]: the AVX-512 ladder's rules for the entry FN of SO (BODY: its
# instructions as body_of gives them, where the caller has them already).
avx512_entry() {
	in=$1 fn=$2
	body=${3:-$(body_of "$fn" "$in")}
	entry=$(printf '%s\n' "$body" | head -n 1)
	if [ -z "$entry" ]; then
		echo "layout.sh: $fn: not found in $in" >&2
		status=1
		return
	fi
	if [ $((0x$entry % 64)) -ne 0 ]; then
		echo "layout.sh: $fn: its entry at 0x$entry does not start a 64-byte line" >&2
		status=1
		return
	fi
	# The path: up to the first ret, through the masked store.
	path=$(printf '%s\n' "$body" | awk 'NR > 1 { print } NR > 1 && $2 == "ret" { exit }')
	last=$(($(printf '%s\n' "$path" | awk 'END { print "0x" $1 }') - 0x$entry))
	if ! printf '%s\n' "$path" | grep -q 'vmovdqu8 %ymm16,(%rdi){%k1}$'; then
		echo "layout.sh: $fn: its first ret does not end the masked move:" >&2
		printf '%s\n' "$path" >&2
		status=1
	elif [ "$last" -ge 128 ]; then
		echo "layout.sh: $fn: the path of 0-31 bytes ends $last bytes past the entry, beyond its two lines:" >&2
		printf '%s\n' "$path" >&2
		status=1
	else
		echo "layout.sh: $fn: 0-31 bytes from the entry to its ret at +$last, two lines"
	fi
	# The page test's branch, the path's last jump: "jne 51de <...>" at 51c2.
	refused=$(printf '%s\n' "$path" | awk '$2 ~ /^j/ { at = $1; to = $3 } END { print at, to }')
	at=${refused% *}
	to=${refused#* }
	if [ -z "$at" ] || [ $((0x$at / 64)) -ne $((0x$to / 64)) ]; then
		echo "layout.sh: $fn: the page test's branch (0x$at) and the refused path (0x$to) lie in different lines" >&2
		status=1
	else
		echo "layout.sh: $fn: the page test's branch and the refused path's size tests share a line"
	fi
}
for fn in copyperf_memcpy_avx512 copyperf_memmove_avx512; do
	avx512_entry "$so" "$fn"
done
# shape FN [SO]: FN's instructions past its first as "offset mnemonic", offsets from the entry in
# decimal, the int3 bytes that fill out a shut gate left out.
shape() {
	body_of "$1" "${2:-$so}" | awk '
		function hex(s, i, n) { for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return n }
		NR == 1 { base = hex($1); next }
		NR == 2 || $2 == "int3" { next }
		{ print hex($1) - base, $2 }'
}
# gate_first NAME FN LIBFN: the shim NAME's entry FN (its instructions in $body) starts shut: a
# 2-byte jump to FN_not_direct, int3 to the end of the first instruction's bytes; past them, the
# instructions of the library's LIBFN at the same offsets, which its first instruction's bytes
# make its ladder once the gate is open.
gate_first() {
	entry=$(printf '%s\n' "$body" | head -n 1)
	first=$(printf '%s\n' "$body" | sed -n 2p)
	next=$(printf '%s\n' "$body" | sed -n 3p | awk '{ print $1 }')
	case $first in
	*" jmp "*"<$2_not_direct>")
		if [ $((0x${next:-0} - 0x$entry)) -ne 2 ]; then
			echo "layout.sh: $1's $2: the gate takes $((0x${next:-0} - 0x$entry)) bytes, not a 2-byte jump's" >&2
			status=1
		elif [ "$(shape "$2" "$in")" != "$(shape "$3")" ]; then
			echo "layout.sh: $1's $2: past its gate, not the instructions of the library's $3 at its offsets:" >&2
			shape "$2" "$in" | head -8 >&2
			status=1
		else
			echo "layout.sh: $1's $2: its gate first, a 2-byte jump; past it the library's $3"
		fi
		;;
	*)
		echo "layout.sh: $1's $2: its first instruction is not its gate, a jump to $2_not_direct: $first" >&2
		status=1
		;;
	esac
}
if [ -n "$shim" ]; then
	in=$shim
	for fn in memcpy memmove; do
		body=$(body_of "$fn" "$shim")
		gate_first "the shim" "$fn" copyperf_memmove_avx512
		avx512_entry "$shim" "$fn" "$body"
	done
fi
# The AVX2 and SSE2 shims: the vector's width from the entry's first size test (vec_entry's v),
# which names the library's ladder to compare.
for level_shim in "$@"; do
	in=$level_shim
	name="the $(basename "$(dirname "$level_shim")") shim"
	for fn in memcpy memmove; do
		body=$(body_of "$fn" "$level_shim")
		vec_entry "$name" "$fn"
		gate_first "$name" "$fn" "copyperf_memmove_$([ "$v" = 0x20 ] && echo avx2 || echo sse2)"
	done
done
exit $status
