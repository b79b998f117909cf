#!/bin/sh
# The module in a real kernel: Debian's packaged amd64 kernel booted in QEMU
# with an initramfs of busybox, a static copyperf, ioctl_cases and the module;
# the guest runs guest.sh.  Fails on any failed guest check, on a BUG, WARNING,
# Oops or soft lockup in the guest's kernel log, and on a guest that hangs.
# usage: run.sh STATIC_COPYPERF STATIC_IOCTL_CASES
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
scripts=$top/scripts/kernel
work=$top/build/kernel-test
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $*"; }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }
finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit
}

copyperf=$1 ioctl_cases=$2
kernel=$("$scripts/debian-kernel.sh") || { bad "fetching Debian's kernel"; finish; }
eval "$kernel"
echo "kernel: $VMLINUZ, headers: $KDIR"
if ko=$("$scripts/build-module.sh" "$KDIR" "$work/kmod-$(basename "$KDIR")"); then
	ok "the module builds against $(basename "$KDIR")"
else
	bad "the module does not build against $KDIR"
	finish
fi
"$scripts/make-initramfs.sh" "$work/initramfs.cpio.gz" "$(command -v busybox)" \
	"$scripts/guest-init.sh" "$copyperf" "$ioctl_cases" "$ko" "$here/guest.sh:run" ||
	{ bad "packing the initramfs"; finish; }

# QEMU's KVM fallback does not trigger when a paravirtual KVM starts and then hangs:
# KVM only where the CPU really has it.
if grep -qwE 'vmx|svm' /proc/cpuinfo && [ -w /dev/kvm ]; then
	accel="-accel kvm -cpu host"
else
	accel="-accel tcg -cpu max"
fi
# watchdog_thresh=1: a walk that holds the CPU for 2 s is reported as a soft lockup.
"$scripts/boot-qemu.sh" -q "qemu-system-x86_64 $accel -m 512 -smp 1 -nodefaults" \
	-k "$VMLINUZ" -i "$work/initramfs.cpio.gz" -c ttyS0 -r ttyS1 -d "$work" -t 120 \
	-a "watchdog_thresh=1"
status=$?
# A serial line ends in \r\n.
results=$work/results.txt
tr -d '\r' <"$work/results.log" >"$results"
sed '/^==== dmesg/,$d' "$results"
if [ "$status" = 0 ]; then ok "the guest powered off"; else bad "qemu exited $status"; fi
if grep -q '^copyperf-guest-status 0$' "$results"; then
	ok "every guest check passed"
else
	bad "the guest's checks: $(grep '^copyperf-guest-status' "$results" || echo 'no status')"
fi
# The console has what was printed before a crash; the guest's dmesg the lower levels.
problems=$( { cat "$work/console.log"; sed -n '/^==== dmesg/,$p' "$results"; } |
	grep -E '(^|[^A-Za-z])(BUG|WARNING|Oops)|soft lockup|Call Trace|Kernel panic' | sort -u)
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
finish
