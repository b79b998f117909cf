#!/bin/sh
# Runs inside the debug-kernel guest (KASAN, UBSAN, lockdep, kmemleak, fault
# injection) as /guest/run: the module's ordinary checks, then hostile callers:
# a random storm from two processes, every allocation failing in turn, a caller
# killed in the middle of the walk, opens, closes and unloads racing with
# measurements, a caller's threads changing its buffers mid-walk, and a leak
# scan at the end.  Prints "N passed, N failed"; the host judges the kernel log
# too.
# STORM_COUNT (default 1500) is the random requests per storm process.
set -u
. ./tally.sh
. ./check.sh
# runs NAME COMMAND...: like check, the command's own lines shown as they come
runs() {
	name=$1
	shift
	"$@"
	st=$?
	if [ "$st" = 0 ]; then ok "$name"; else bad "$name: exit $st"; fi
}
# one_line_error NAME STATUS ERRFILE TEXT: copyperf failed (exit 2, too little memory: the
# user's limit, as in user space) saying one line containing TEXT
one_line_error() {
	if [ "$2" = 2 ] && [ "$(wc -l <"$3")" = 1 ] && grep -q -- "$4" "$3"; then ok "$1"
	else bad "$1: exit $2, stderr: $(cat "$3")"; fi
}
# wait_busy: until a measurement holds the module (its reference count), at most 10 s
wait_busy() {
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		[ "$(cat /sys/module/copyperf/refcnt 2>/dev/null || echo 0)" = 0 ] || return 0
		sleep 1
	done
	return 1
}

mount -t debugfs debugfs /sys/kernel/debug
# What the kernel allocated while booting is not the module's to answer for.
echo clear >/sys/kernel/debug/kmemleak

# The storms' two processes and the race's threads run side by side only on two CPUs.
check "two CPUs online" sh -c '[ "$(grep -c "^processor" /proc/cpuinfo)" = 2 ]'

# The module's ordinary checks (tests/kernel/guest.sh), under the checkers; they end unloaded.
runs "the ordinary guest checks" ./kernel-guest.sh

check "insmod" insmod ./copyperf.ko
runs "a storm of random requests from two processes" ./ioctl_storm storm "${STORM_COUNT:-1500}"
runs "each allocation of a measurement failing in turn" ./ioctl_storm failnth

# The command when the module cannot allocate: one line naming the reason, no oops.
# Fault injection for this process alone, every allocation it makes from now.
copyperf --kernel -q -r memcpy -s 64K -t 1G -n 20 >/dev/null 2>/tmp/nomem.err &
pid=$!
wait_busy
fi=/sys/kernel/debug/failslab
fp=/sys/kernel/debug/fail_page_alloc
for knob in "$fi" "$fp"; do
	echo Y >"$knob"/task-filter
	echo 100 >"$knob"/probability
	echo -1 >"$knob"/times
done
echo 1 >/proc/$pid/make-it-fail
wait $pid
st=$?
for knob in "$fi" "$fp"; do echo 0 >"$knob"/probability; done
one_line_error "the module out of memory: one line from the command" $st /tmp/nomem.err \
	"the module refused: Cannot allocate memory"

# Killed in the middle of the walk (a user copy: pinned pages), then a normal measurement.
copyperf --kernel -q -r copy_to_user -s 8 -t 1T -n 1 >/dev/null 2>&1 &
pid=$!
if wait_busy; then ok "the measurement to be killed is walking"
else bad "the measurement to be killed never held the module"; fi
sleep 1
kill -9 $pid
wait $pid
st=$?
if [ "$st" = 137 ]; then ok "SIGKILL in the middle of the walk ends it"
else bad "the killed measurement ended with status $st, not 137"; fi
check "the module lets go of the killed caller" test "$(cat /sys/module/copyperf/refcnt)" = 0
check "a normal measurement after the kill" copyperf --kernel -q -r copy_to_user,memcpy \
	-s 64K,8 -t 64K -n 1

# Opens, closes and unloads racing with measurements: every answer is a
# measurement, "not loaded" or the unload refused; the module comes back.
race_end=$(($(date +%s) + 20))
racer() {
	while [ "$(date +%s)" -lt $race_end ]; do
		copyperf --kernel -q -r "$1" -s 4K,64 -t 64K -n 1 >/dev/null 2>"/tmp/race.$2"
		st=$?
		[ "$st" = 0 ] && continue
		[ "$(wc -l <"/tmp/race.$2")" = 1 ] && grep -q 'insmod' "/tmp/race.$2" && continue
		echo "racer $1: exit $st: $(cat "/tmp/race.$2")"
		return 1
	done
}
racer copy_from_user a >/tmp/racer.a 2>&1 &
ra=$!
racer memcpy b >/tmp/racer.b 2>&1 &
rb=$!
runs "opens, closes, unloads and reloads racing with measurements" ./ioctl_storm churn 20 \
	./copyperf.ko
wait $ra && ok "a copy_from_user racer saw only results or 'not loaded'" || bad "$(cat /tmp/racer.a)"
wait $rb && ok "a memcpy racer saw only results or 'not loaded'" || bad "$(cat /tmp/racer.b)"
[ -e /sys/module/copyperf ] || insmod ./copyperf.ko
check "rmmod after the race" rmmod copyperf
check "insmod again" insmod ./copyperf.ko
check "a run after reloading" copyperf --kernel -q -s 64K,8 -t 64K -n 1
# Last of the measurements: a caller killed by an oops in the walk keeps the module's lock,
# and any measurement after it would wait out the guest's time limit.
runs "a caller's threads changing its buffers mid-walk: only true answers" ./ioctl_storm race 8
check "rmmod" rmmod copyperf

# Everything the module allocated is freed: two scans, as kmemleak's documentation
# advises (an object is reported only once it stays unreferenced).
check "a kmemleak scan" sh -c 'echo scan >/sys/kernel/debug/kmemleak'
sleep 1
check "a second kmemleak scan" sh -c 'echo scan >/sys/kernel/debug/kmemleak'
cat /sys/kernel/debug/kmemleak >/tmp/leaks
# kmemleak turns itself off when it cannot track an object: then it finds nothing.
if dmesg | grep -q 'kmemleak.*disabled'; then
	bad "kmemleak disabled itself: $(dmesg | grep 'kmemleak' | tail -n 3)"
elif [ -s /tmp/leaks ]; then
	bad "kmemleak found unreferenced objects:"
	cat /tmp/leaks
else
	ok "kmemleak: nothing unreferenced"
fi
tally
