#!/bin/sh
# The module under a debug kernel: x86-64 from Debian's linux-source-6.1 with
# KASAN, UBSAN, lockdep, atomic-sleep checks, kmemleak, hardened usercopy and
# fault injection (scripts/kernel/x86_64-debug.config over tinyconfig, built
# once and cached by scripts/kernel/kernel-tree.sh), booted in QEMU on two
# CPUs; the guest runs guest.sh.  Fails on any failed guest check, on any
# report in the guest's kernel log (shown in full), on a guest that hangs, and
# on a checkpatch complaint about the module's source.
# usage: run.sh STATIC_COPYPERF STATIC_IOCTL_CASES STATIC_IOCTL_STORM
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
work=$top/build/kernel-debug
. "$top/tests/tally.sh"
. "$top/scripts/kernel/kernel-lock.sh"
. "$top/scripts/kernel/judge-guest.sh"

if ! tree=$("$top/scripts/kernel/kernel-tree.sh" x86_64-debug/tiny x86_64 tinyconfig \
	"$top/scripts/kernel/x86_64-debug.config"); then
	bad "the debug kernel could not be built"
	tally
	exit 1
fi
# checkpatch is the kernel's style for the module; the tree's own copy judges it.
if out=$("$tree/source/scripts/checkpatch.pl" --no-tree -q --terse -f "$top"/kmod/*.c "$top"/kmod/*.h "$top"/kmod/shim/*.h 2>&1) &&
	! echo "$out" | grep -qv ' 0 errors, 0 warnings'; then
	ok "checkpatch: the module's source is clean"
else
	bad "checkpatch:"
	echo "$out" | grep -v ' 0 errors, 0 warnings'
fi

# watchdog_thresh=1: a walk that holds the CPU for 2 s is a soft lockup; hugepages: the storm's;
# tsc=reliable: QEMU's TSC follows the host's clock, but a loaded host delays the timer ticks
# the kernel would judge it by, and jiffies would then time the walks in 4 ms steps.
"$top/scripts/kernel/x86_64-guest.sh" -t "$tree" -s 2 "$work" 1500 "$here/guest.sh" \
	"$1" "$2" "$3" "$top/tests/tally.sh" "$top/tests/kernel/check.sh" \
	"$top/tests/kernel/guest.sh:kernel-guest.sh" \
	-- watchdog_thresh=1 hugepages=8 tsc=reliable
status=$?
results=$work/results.txt
sed '/^==== dmesg/,$d' "$results" 2>/dev/null
judge_guest "$status" "every guest check passed" "$results" "$work/console.log"
tally
