#!/bin/sh
# The seed's comparison on real 32-bit PowerPC kernel code: a trimmed pmac32
# kernel from Debian's linux-source-6.1 booted in qemu-system-ppc (mac99, a
# 750: a 603-lineage core with 32-byte lines) with the module, a static
# copyperf and a C /init, running copyperf --kernel for the kernel's memcpy,
# copy_to_user / copy_from_user (__copy_tofrom_user) and copyperf's line copy.
# Fails on a row not verified, a guest that hangs, and any BUG, WARNING or Oops.
# usage: test-kernel.sh STATIC_PPC_COPYPERF STATIC_PPC_INIT
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
copyperf=$1 init=$2
work=$top/build/kernel-ppc32
. "$top/scripts/kernel/kernel-lock.sh" # held while this script reads the console too
routines="memcpy copy_to_user copy_from_user copyperf_lines"
. "$top/tests/tally.sh"
. "$top/scripts/kernel/judge-guest.sh"
list=$(echo "$routines" | tr ' ' ,)
"$here/guest.sh" "$work" 180 "$copyperf" "$init" --kernel -r "$list" -t 1M -n 3 -q
status=$?
# The table, as copyperf printed it: from its header to the guest's status line.
sed -n '/^copyperf [0-9]/,/^copyperf-guest-status/p' "$work/console.txt" |
	grep -v '^copyperf-guest-status' >"$work/results.txt"
cat "$work/results.txt"

for r in $routines; do
	# a row: the routine and a chunk size (its summary line under the table names it too)
	rows=$(awk -v r="$r" '$1 == r && $2 ~ /^[0-9]+$/' "$work/results.txt" | wc -l)
	verified=$(awk -v r="$r" '$1 == r && $2 ~ /^[0-9]+$/ && $NF == "yes"' "$work/results.txt" | wc -l)
	if [ "$rows" = 14 ] && [ "$verified" = 14 ]; then
		ok "$r: all 14 chunk sizes verified"
	else
		bad "$r: $verified of $rows rows verified, expected 14"
	fi
	[ "$r" = memcpy ] && continue
	if grep -q "^$r against memcpy: geometric mean [0-9.]*x over 14 chunks;" "$work/results.txt"; then
		ok "$r: read against the kernel's memcpy"
	else
		bad "$r: no summary line against the kernel's memcpy"
	fi
done
# One port: the status line, the dmesg and the console are all in console.txt.
judge_guest "$status" "copyperf --kernel exited 0" "$work/console.txt" "$work/console.txt"
tally
