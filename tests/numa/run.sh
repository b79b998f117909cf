#!/bin/sh
# test-numa: copyperf's --numa on a machine of two NUMA nodes. Debian's kernel boots in QEMU
# with two CPUs, each on a node of its own with half the memory; the guest runs the native
# copyperf (through the host's dynamic loader, C library and libnuma, copied beside it) and
# checks that the machine block lists both nodes, and that each placement puts the buffers
# where it says, as the kernel reports them back (guest.sh).
# usage: run.sh COPYPERF
guest_work=numa-test
. "$(dirname "$0")/../guest-runner.sh"

cp=$1
numa=$(ldconfig -p | sed -n 's/^[[:space:]]*libnuma\.so\.1 (libc6,x86-64) => //p' | head -1)
[ -n "$numa" ] || { bad "no libnuma.so.1 on this machine (apt-get install libnuma1)"; tally numa; exit 1; }
# Every library the program needs, and libnuma, which it opens itself (dlopen).
files="$("$top/scripts/kernel/dynamic-files.sh" "$cp") $numa $top/tests/tally.sh $top/tests/kernel/check.sh"
# shellcheck disable=SC2086
"$top/scripts/kernel/x86_64-guest.sh" -s 2 -n 2 "$work" 180 "$here/guest.sh" $files
status=$?
sed '/^==== dmesg/,$d' "$work/results.txt" 2>/dev/null
judge_guest "$status" "every guest check passed" "$work/results.txt" "$work/console.log"
tally numa
