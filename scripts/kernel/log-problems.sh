#!/bin/sh
# Prints the lines of a guest's kernel log (FILEs, or standard input) that mean
# the kernel went wrong: BUG, WARNING, Oops, a call trace, a panic, a soft lockup,
# an interrupt nobody handled, a sanitizer's report (KASAN's is a BUG, UBSAN's its
# own), a leak kmemleak found.  Each distinct line once; nothing for a clean log.
#   log-problems.sh [FILE...]
#   log-problems.sh -n FILE     the line number of FILE's first such line instead
pattern='(^|[^A-Za-z])(BUG|WARNING|Oops|UBSAN)|soft lockup|Call Trace|Kernel panic|nobody cared'
pattern="$pattern|suspected memory leak"
if [ "${1:-}" = -n ]; then
	grep -n -m1 -E "$pattern" "$2" | cut -d: -f1
	exit 0
fi
grep -hE "$pattern" "$@" | sort -u
