#!/bin/sh
# Boots a kernel and initramfs in QEMU, the console and the results device
# (the first and second serial ports) each to a file, and waits for power-off.
#   boot-qemu.sh -q "QEMU [ARGS]" -k KERNEL -i INITRD -c CONSOLE_DEV -r RESULTS_DEV \
#                -d LOG_DIR [-t SECONDS] [-a "EXTRA KERNEL ARGS"]
# e.g. -q "qemu-system-x86_64 -accel tcg -cpu max -m 512 -nodefaults" -c ttyS0 -r ttyS1
#      -q "qemu-system-ppc -M mac99 -cpu 750 -m 512" -c ttyS0 -r console
#      (RESULTS_DEV "console": the results share the console, as on mac99)
# Writes LOG_DIR/console.log and LOG_DIR/results.log.  Exits with QEMU's status,
# or 124 after printing the console's last lines when the guest outlives the limit.
set -eu
qemu= kernel= initrd= console= results= dir= limit=120 extra=
while getopts q:k:i:c:r:d:t:a: opt; do
	case $opt in
	q) qemu=$OPTARG ;;
	k) kernel=$OPTARG ;;
	i) initrd=$OPTARG ;;
	c) console=$OPTARG ;;
	r) results=$OPTARG ;;
	d) dir=$OPTARG ;;
	t) limit=$OPTARG ;;
	a) extra=$OPTARG ;;
	*) exit 2 ;;
	esac
done
for v in qemu kernel initrd console results dir; do
	eval "[ -n \"\$$v\" ]" || { echo "boot-qemu.sh: -${v%"${v#?}"} is missing" >&2; exit 2; }
done
mkdir -p "$dir"
: >"$dir/console.log"
: >"$dir/results.log"
# loglevel=5: warnings reach the console even when the guest never gets to print its log.
append="console=$console loglevel=5 panic=-1 copyperf_out=/dev/$results $extra"
set +e
# --foreground: QEMU stays in the caller's process group, so a Ctrl-C or a CI timeout that
# ends the run ends the guest too (else it runs on, orphaned, up to its limit). 9>&-: the
# caller's tree lock (kernel-lock.sh) is not QEMU's to hold.
# shellcheck disable=SC2086
timeout --foreground -k 5 "$limit" $qemu -kernel "$kernel" -initrd "$initrd" -append "$append" \
	-display none -no-reboot \
	-serial "file:$dir/console.log" -serial "file:$dir/results.log" </dev/null 9>&-
status=$?
set -e
if [ "$status" = 124 ] || [ "$status" = 137 ]; then
	echo "boot-qemu.sh: the guest did not power off within $limit s; its console's end:" >&2
	tail -n 40 "$dir/console.log" >&2
	exit 124
fi
exit "$status"
