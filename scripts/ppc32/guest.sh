#!/bin/sh
# Boots the trimmed pmac32 kernel in qemu-system-ppc (mac99, -cpu 750) with the
# module built against it, a static powerpc copyperf and the C /init, and runs
# `copyperf ARGS...` there.  Leaves WORKDIR/console.txt (the console, kernel
# and copyperf together, then "copyperf-guest-status N" and the guest's dmesg)
# and exits as boot-qemu.sh does (124: the guest hung).
#   guest.sh WORKDIR TIME_LIMIT STATIC_PPC_COPYPERF STATIC_PPC_INIT ARGS...
set -eu
[ $# -ge 4 ] || { echo "usage: guest.sh WORKDIR TIME_LIMIT COPYPERF INIT ARGS..." >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
kernel=$here/../kernel
work=$1 limit=$2 copyperf=$3 init=$4
shift 4
# One guest per work directory: a second run in this tree waits.
. "$kernel/kernel-lock.sh"
rm -f "$work/console.log" "$work/console.txt"

tree=$("$here/kernel-tree.sh" pmac32)
ko=$("$kernel/build-module.sh" "$tree" "$work/kmod" ARCH=powerpc CROSS_COMPILE=powerpc-linux-gnu-)
"$kernel/make-initramfs.sh" "$work/initramfs.cpio.gz" - "$init" "$ko" "$copyperf:run"

# Results go to the console: in QEMU's mac99 opening the second Zilog port floods
# its interrupt ("irq 36: nobody cared"), so the guest shares ttyS0 with the kernel.
set +e
"$kernel/boot-qemu.sh" -q "qemu-system-ppc -M mac99 -cpu 750 -m 512" \
	-k "$tree/vmlinux" -i "$work/initramfs.cpio.gz" -c ttyS0 -r console -d "$work" \
	-t "$limit" -a "-- $*"
status=$?
# A serial line ends in \r\n.
tr -d '\r' <"$work/console.log" >"$work/console.txt"
exit $status
