#!/bin/sh
# SPDX-License-Identifier: MIT
# The AVX-512 entries' path for 0-32 bytes, from the entry to its ret, lies in
# the entry's 64-byte line (lib/x86_64/copy_avx512_small.S): each mispredicted
# size test fetches the path again, one line and not two. An edit that lays the
# path out otherwise fails here, not silently in a benchmark.
# Usage: layout.sh LIBRARY.so
set -eu
so=$1
command -v objdump >/dev/null || { echo "layout.sh: objdump not found (Debian package binutils)" >&2; exit 1; }
status=0
for fn in copyperf_memcpy_avx512 copyperf_memmove_avx512; do
	# The function's instructions as "address mnemonic operands", addresses in hex.
	body=$(objdump -d --no-show-raw-insn --disassemble="$fn" "$so" | awk -v fn="$fn" '
		$0 ~ "<" fn ">:$" { print $1; on = 1; next }
		on && /^ *[0-9a-f]+:/ { sub(":", "", $1); print }
		on && /^$/ { exit }')
	entry=$(printf '%s\n' "$body" | head -n 1)
	if [ -z "$entry" ]; then
		echo "layout.sh: $fn: not found in $so" >&2
		status=1
		continue
	fi
	if [ $((0x$entry % 64)) -ne 0 ]; then
		echo "layout.sh: $fn: its entry at 0x$entry does not start a 64-byte line" >&2
		status=1
		continue
	fi
	# The path: up to the first ret, through the masked store.
	path=$(printf '%s\n' "$body" | awk 'NR > 1 { print } NR > 1 && $2 == "ret" { exit }')
	last=$(($(printf '%s\n' "$path" | awk 'END { print "0x" $1 }') - 0x$entry))
	if ! printf '%s\n' "$path" | grep -q 'vmovdqu8 %ymm16,(%rdi){%k1}$'; then
		echo "layout.sh: $fn: its first ret does not end the masked move:" >&2
		printf '%s\n' "$path" >&2
		status=1
	elif [ "$last" -ge 64 ]; then
		echo "layout.sh: $fn: the path of 0-32 bytes ends $last bytes past the entry, beyond its line:" >&2
		printf '%s\n' "$path" >&2
		status=1
	else
		echo "layout.sh: $fn: 0-32 bytes from the entry to its ret at +$last, one line"
	fi
done
exit $status
