#!/bin/sh
# Runs inside the test guest as /guest/run, next to copyperf, ioctl_cases and
# copyperf.ko: the module's whole life as a user meets it.  Prints the kernel
# sweep's table and "N passed, N failed"; exits 1 on any failure.  The kernel
# log is judged on the host (scripts/kernel/log-problems.sh), from the console and
# the dmesg that guest-init.sh sends after this script.
# SWEEP_TOTAL (default 256K) is the sweep's --total.
set -u
. ./tally.sh
. ./check.sh
# usage_error NAME TEXT ARGS...: copyperf exits 2 with one line on stderr containing TEXT
usage_error() {
	name=$1 want=$2
	shift 2
	copyperf "$@" >/tmp/out 2>/tmp/err
	st=$?
	if [ "$st" = 2 ] && [ "$(wc -l </tmp/err)" = 1 ] && grep -q -- "$want" /tmp/err; then
		ok "$name"
	else
		bad "$name: exit $st, stderr: $(cat /tmp/err)"
	fi
}

usage_error "no module: says how to load it" "insmod" --kernel -q -t 64K -s 64K
check "insmod" insmod ./copyperf.ko
check "the module says its version, the command's" sh -c \
	'[ "$(cat /sys/module/copyperf/version)" = "$(copyperf --version | sed -n "1s/^copyperf //p")" ]'
check "/dev/copyperf appears" test -c /dev/copyperf
check "--list --kernel names the module's routines" \
	sh -c 'copyperf --kernel --list | grep -q "^copy_from_user .*copy_from_user"'

# The seed's sweep, 64 KiB to 8 B: the kernel's memcpy and user copies, and the portable C
# copy; each read against the kernel's memcpy, as the 2008 post read __copy_tofrom_user.
sweep="memcpy,copy_to_user,copy_from_user,copyperf_generic_memcpy"
if copyperf --kernel -q -r "$sweep" -t "${SWEEP_TOTAL:-256K}" -n 4 -o /tmp/sweep.txt; then
	rows_ok=yes
	for r in memcpy copy_to_user copy_from_user copyperf_generic_memcpy; do
		n=$(grep -cE "^$r +[0-9]+ .* yes$" /tmp/sweep.txt)
		[ "$n" = 14 ] || { rows_ok="$r has $n verified rows"; break; }
		[ "$r" = memcpy ] || grep -qE "^$r against memcpy: geometric mean [0-9.]+x over 14 chunks;" \
			/tmp/sweep.txt || { rows_ok="$r not read against memcpy"; break; }
	done
	grep -qE "^memcpy +[0-9]+ .* - +yes$" /tmp/sweep.txt && grep -q "vs memcpy" /tmp/sweep.txt ||
		rows_ok="no column against the kernel's memcpy"
	if [ "$rows_ok" = yes ]; then ok "kernel sweep: 14 verified rows per routine, read against memcpy"
	else bad "kernel sweep: $rows_ok"; fi
else
	bad "kernel sweep: copyperf exited $?"
fi
check "every routine, every cache mode, offsets 1:3, json" sh -c '
	for c in flush flush-timed hot; do
		copyperf --kernel -q -c $c -a 1:3 -s 4K,64,8 -t 16K -n 1 -f json >/tmp/j || exit 1
		grep -q "\"space\":\"kernel\"" /tmp/j || exit 1
		! grep -q "\"verified\":false" /tmp/j || exit 1
		n=$(grep -o "\"verified\":true" /tmp/j | wc -l)
		[ "$n" -ge 12 ] && [ $((n % 3)) -eq 0 ] || exit 1
	done'
check "32 MiB buffers (vmalloc, over 8192 pinned pages)" \
	copyperf --kernel -q -b 32M -s 16M,4K -t 32M -n 1 -a 5:0 -r memcpy,copy_to_user,copy_from_user
# Kernel-to-kernel routines only: the command maps no user buffer of its own, so a 64 MiB
# buffer fits under an address-space limit far smaller than it.
check "memcpy alone: no user buffer, 64 MiB under ulimit -v 48M" \
	sh -c 'ulimit -v 49152 && copyperf --kernel -q -b 64M -s 64M -t 64M -n 1 -r memcpy >/dev/null'
# The module's own verification, shown a wrong copy: FAILED with the first wrong offset, exit 1.
wrong_copy() {
	name=$1 want=$2
	shift 2
	copyperf --kernel -q "$@" >/tmp/out 2>/tmp/err
	st=$?
	if [ "$st" = 1 ] && grep -q -- "$want" /tmp/err; then ok "$name"
	else bad "$name: exit $st, stderr: $(cat /tmp/err)"; fi
}
wrong_copy "a short copy is caught at its last byte" \
	"selftest_short FAILED at chunk 4096: selftest_short: wrong byte at offset 4095:" \
	-r selftest_short -s 4K -t 64K -n 1
wrong_copy "a short copy is caught past the module's first 1 MiB piece of verification" \
	"selftest_short FAILED at chunk 3145728: selftest_short: wrong byte at offset 3145727:" \
	-r selftest_short -b 3M -s 3M -t 3M -n 1
wrong_copy "every pass is checked, not only the last over each byte (1000th and 2000th calls wrong)" \
	"selftest_rarely FAILED at chunk 4096: selftest_rarely: wrong byte at offset" \
	-r selftest_rarely -s 4K -t 4M -n 1
wrong_copy "every pass is checked in flush-timed mode too, in the timed walk" \
	"selftest_rarely FAILED at chunk 4096: selftest_rarely: wrong byte at offset" \
	-r selftest_rarely -c flush-timed -s 4K -t 4M -n 1
wrong_copy "every pass is checked in hot mode too (there after the timed walk)" \
	"selftest_rarely FAILED at chunk 4096: selftest_rarely: wrong byte at offset" \
	-r selftest_rarely -c hot -s 4K -t 4M -n 1
# Its arguments swapped: every second pass left both buffers right for a check against the
# source as it then was; the passes are checked against the module's own copy of the source.
for c in flush flush-timed hot; do
	wrong_copy "a routine copying the destination over its source, -c $c" \
		"selftest_swapped FAILED at chunk 4096: selftest_swapped: changed its source, at offset 0" \
		-r selftest_swapped -c $c -s 4K -t 4M -n 1
done
wrong_copy "an overrun is caught in the canary" \
	"selftest_overrun FAILED at chunk 4096: selftest_overrun: wrote past the copied range, at offset 16384" \
	-r selftest_overrun -s 4K -t 16K -n 1
check "self-tests are listed, and measured only when named" sh -c '
	copyperf --kernel --list | grep -q "^selftest_short .*only when named" &&
	copyperf --kernel -q -s 64K -t 64K -n 1 -f csv | grep -q "^memcpy," &&
	! copyperf --kernel -q -s 64K -t 64K -n 1 -f csv | grep -q "^selftest"'
check "seed format" sh -c 'copyperf --kernel -q -r copy_to_user -s 64K -t 64K -n 1 -f seed |
	grep -q "^chunk:  65536 \[B\] | transfer:"'
check "--counters: one notice that the kernel is not counted, then the run" sh -c '
	copyperf --kernel -q --counters -r memcpy -s 64K -t 64K -n 1 -f csv >/tmp/c.csv 2>/tmp/c.err &&
	[ "$(grep -vc "^copyperf: note: .* raise --total$" /tmp/c.err)" = 1 ] &&
	grep -q "not counted inside the kernel" /tmp/c.err &&
	grep -q "^memcpy,kernel,65536," /tmp/c.csv'
usage_error "unknown routine lists the module's" \
	"unknown kernel routine 'nosuch' (valid: memcpy, memmove, copy_to_user" \
	--kernel -r nosuch -s 64K -t 64K
usage_error "cold is refused" "--cache cold: not available with --kernel" \
	--kernel -c cold -s 64K -t 64K
usage_error "a buffer over the module's limit" "--buffer: at most" \
	--kernel -b 1G -s 64K -t 64K
check "bad ioctl inputs" ./ioctl_cases
cat /tmp/out
# SIGTERM in the middle of a long kernel measurement: the walk lets go, copyperf exits 143 at
# once and the previous results file stays as it was, with no temporary file beside it.
mkdir -p /tmp/keep && echo previous >/tmp/keep/r.txt
copyperf --kernel -q -r memcpy -s 8 -t 1T -n 1 -o /tmp/keep/r.txt 2>/tmp/err &
busy=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do # until the measurement holds the module
	[ "$(cat /sys/module/copyperf/refcnt)" = 0 ] || break
	sleep 1
done
sleep 1 # into the walk
start=$(date +%s)
kill -TERM "$busy"
wait "$busy"
st=$?
took=$(($(date +%s) - start))
if [ "$st" = 143 ] && [ "$took" -le 2 ] && [ "$(cat /tmp/keep/r.txt)" = previous ] &&
	[ "$(ls -A /tmp/keep)" = r.txt ] && grep -q "stopped by SIGTERM after 0 of 2" /tmp/err; then
	ok "SIGTERM stops a kernel measurement, the previous file kept"
else
	bad "SIGTERM during a kernel measurement: exit $st after $took s, files: $(ls -A /tmp/keep), stderr: $(cat /tmp/err)"
fi
# Unloading under a running measurement must be refused, then work once it is gone.
copyperf --kernel -q -r memcpy -s 8 -t 1G -n 1 >/dev/null 2>&1 &
busy=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do # until the measurement holds the module
	[ "$(cat /sys/module/copyperf/refcnt)" = 0 ] || break
	sleep 1
done
if rmmod copyperf 2>/dev/null; then bad "rmmod during a measurement succeeded"
else ok "rmmod during a measurement is refused"; fi
kill -9 "$busy"
wait "$busy" 2>/dev/null
check "rmmod" rmmod copyperf
check "/dev/copyperf is gone" test ! -e /dev/copyperf
usage_error "unloaded: says how to load it" "insmod" --kernel -q -t 64K -s 64K
check "insmod again" insmod ./copyperf.ko
check "a run after reloading" copyperf --kernel -q -s 64K,8 -t 64K -n 1
check "rmmod again" rmmod copyperf

echo "==== kernel sweep table"
cat /tmp/sweep.txt
tally
