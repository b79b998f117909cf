#!/bin/busybox sh
# /init of the test guest: mount what busybox needs, run /guest/run with its
# output on the results device, then end the machine.  The results end with
#   copyperf-guest-status N      (run's exit status)
#   ==== dmesg                    (the whole kernel log, below its console level too)
# copyperf_out=/dev/ttyS1 on the kernel command line names the results device.
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t devtmpfs devtmpfs /dev
/bin/busybox --install -s /bin
export PATH=/guest:/bin
out=${copyperf_out:-/dev/console}
mkdir -p /tmp
cd /guest
./run >"$out" 2>&1
echo "copyperf-guest-status $?" >"$out"
{ echo "==== dmesg"; dmesg; } >"$out"
sync
# QEMU runs with -no-reboot, so a reset ends it as a power-off would, and a kernel
# without ACPI (the debug kernel) can reset the machine but not power it off.
reboot -f
