#!/bin/sh
# The module in a real kernel: Debian's packaged amd64 kernel booted in QEMU
# with an initramfs of busybox, a static copyperf, ioctl_cases and the module;
# the guest runs guest.sh.  Fails on any failed guest check, on a BUG, WARNING,
# Oops or soft lockup in the guest's kernel log, and on a guest that hangs.
# usage: run.sh STATIC_COPYPERF STATIC_IOCTL_CASES
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
work=$top/build/kernel-test
. "$top/tests/tally.sh"
. "$top/scripts/kernel/kernel-lock.sh"

# watchdog_thresh=1: a walk that holds the CPU for 2 s is reported as a soft lockup.
"$top/scripts/kernel/x86_64-guest.sh" "$work" 120 "$here/guest.sh" "$1" "$2" \
	"$top/tests/tally.sh" -- watchdog_thresh=1
status=$?
results=$work/results.txt
sed '/^==== dmesg/,$d' "$results" 2>/dev/null
if [ "$status" = 0 ]; then ok "the guest powered off"; else bad "the guest: exit $status"; fi
if grep -q '^copyperf-guest-status 0$' "$results"; then
	ok "every guest check passed"
else
	bad "the guest's checks: $(grep '^copyperf-guest-status' "$results" || echo 'no status')"
fi
# The console has what was printed before a crash; the guest's dmesg the lower levels.
problems=$( { cat "$work/console.log"; sed -n '/^==== dmesg/,$p' "$results"; } |
	"$top/scripts/kernel/log-problems.sh")
if [ -z "$problems" ]; then
	ok "the kernel log has no BUG, WARNING, Oops or soft lockup"
else
	bad "the kernel log:"
	echo "$problems"
fi
grep -q '^==== dmesg' "$results" && ok "the guest's kernel log was read" ||
	bad "the guest's kernel log never arrived"
if [ "$failed" != 0 ]; then
	echo "---- console ($work/console.log), last lines:"
	tail -n 30 "$work/console.log"
fi
tally
