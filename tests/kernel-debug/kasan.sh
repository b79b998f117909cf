#!/bin/sh
# Runs inside the debug-kernel guest as /guest/run for the negative control (see run.sh): a
# module with selftest_kasan, a copy that is right but reads a byte past a kmalloc. Its
# measurement must pass verification; the host then looks for KASAN's report of that read.
set -u
. ./tally.sh
. ./check.sh
check "insmod the module with selftest_kasan" insmod ./copyperf.ko
check "selftest_kasan copies right (only a sanitizer sees its read)" \
	./copyperf --kernel -q -r selftest_kasan -s 64 -t 64 -n 1
check "rmmod" rmmod copyperf
tally
