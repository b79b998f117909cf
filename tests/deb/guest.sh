#!/bin/sh
# Runs inside the test guest as /guest/run (see tests/deb/run.sh): the module that DKMS built in
# the Debian root loads in that kernel and answers the packaged copyperf, run through the root's
# own dynamic loader and C library (copied beside it).  Prints "N passed, N failed".
set -u
. ./tally.sh
. ./check.sh
copyperf() { ./ld-linux-x86-64.so.2 --library-path /guest ./copyperf "$@"; }
check "insmod the module DKMS built" insmod ./copyperf.ko
check "/dev/copyperf appears" test -c /dev/copyperf
copyperf --kernel --list >/tmp/list 2>&1 && grep -q "^copy_from_user " /tmp/list &&
	ok "the packaged copyperf --kernel --list names the module's routines" ||
	bad "copyperf --kernel --list: $(tail -n 3 /tmp/list)"
if copyperf --kernel -q -s 64K,4K,8 -t 64K -n 1 -f json >/tmp/k.json 2>/tmp/err; then
	n=$(grep -o '"verified":true' /tmp/k.json | wc -l)
	if grep -q '"space":"kernel"' /tmp/k.json && ! grep -q '"verified":false' /tmp/k.json && [ "$n" -ge 15 ]; then
		ok "copyperf --kernel: $n results, every one verified"
	else
		bad "copyperf --kernel's results: $(head -c 300 /tmp/k.json)"
	fi
else
	bad "copyperf --kernel exited $?: $(cat /tmp/err)"
fi
check "rmmod" rmmod copyperf
tally
