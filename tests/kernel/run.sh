#!/bin/sh
# The module in a real kernel: Debian's packaged amd64 kernel booted in QEMU
# with an initramfs of busybox, a static copyperf, ioctl_cases and the module;
# the guest runs guest.sh.  Fails on any failed guest check, on a BUG, WARNING,
# Oops or soft lockup in the guest's kernel log, and on a guest that hangs.
# usage: run.sh STATIC_COPYPERF STATIC_IOCTL_CASES
guest_work=kernel-test
. "$(dirname "$0")/../guest-runner.sh"

# watchdog_thresh=1: a walk that holds the CPU for 2 s is reported as a soft lockup.
"$top/scripts/kernel/x86_64-guest.sh" "$work" 120 "$here/guest.sh" "$1" "$2" \
	"$top/tests/tally.sh" "$here/check.sh" -- watchdog_thresh=1
status=$?
results=$work/results.txt
sed '/^==== dmesg/,$d' "$results" 2>/dev/null
judge_guest "$status" "every guest check passed" "$results" "$work/console.log"
tally
