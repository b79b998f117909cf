#!/bin/sh
# The module under a debug kernel: x86-64 from Debian's linux-source-6.1 with
# KASAN, UBSAN, lockdep, atomic-sleep checks, kmemleak, hardened usercopy and
# fault injection (scripts/kernel/x86_64-debug.config over tinyconfig, built
# once and cached by scripts/kernel/kernel-tree.sh), booted in QEMU on two
# CPUs; the guest runs guest.sh.  Fails on any failed guest check, on any
# report in the guest's kernel log (shown in full), on a guest that hangs, and
# on a checkpatch complaint about the module's source. Then a negative control:
# the kernel booted again with a module that reads past a kmalloc on purpose,
# whose log must show KASAN's report of it, found by the same log check.
# usage: run.sh STATIC_COPYPERF STATIC_IOCTL_CASES STATIC_IOCTL_STORM
guest_work=kernel-debug
. "$(dirname "$0")/../guest-runner.sh"

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

# The negative control: the checkers and the log check can fail. KASAN must report the bait's
# read past its kmalloc, naming the function, and log-problems.sh must find the report.
bait=$work/kasan
"$top/scripts/kernel/x86_64-guest.sh" -t "$tree" -B COPYPERF_SELFTEST_KASAN=y "$bait" 600 \
	"$here/kasan.sh" "$1" "$top/tests/tally.sh" "$top/tests/kernel/check.sh" -- tsc=reliable
status=$?
sed '/^==== dmesg/,$d' "$bait/results.txt" 2>/dev/null
if [ "$status" = 0 ] && grep -q '^copyperf-guest-status 0$' "$bait/results.txt"; then
	ok "negative control: the guest ran the bait and powered off"
else
	bad "negative control: the guest: exit $status, $(grep '^copyperf-guest-status' "$bait/results.txt")"
fi
report=$(sed -n '/^==== dmesg/,$p' "$bait/results.txt" | "$top/scripts/kernel/log-problems.sh" |
	grep 'BUG: KASAN: slab-out-of-bounds in op_selftest_kasan')
[ -n "$report" ] && ok "negative control: KASAN caught the module's read past a kmalloc: ${report#*] }" ||
	bad "negative control: no KASAN report of op_selftest_kasan in the log ($bait/results.txt)"
tally
