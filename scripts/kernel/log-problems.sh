#!/bin/sh
# Prints the lines of a guest's kernel log (FILEs, or standard input) that mean
# the kernel went wrong: BUG, WARNING, Oops, a call trace, a panic, a soft lockup,
# an interrupt nobody handled.  Each distinct line once; nothing for a clean log.
#   log-problems.sh [FILE...]
grep -hE '(^|[^A-Za-z])(BUG|WARNING|Oops)|soft lockup|Call Trace|Kernel panic|nobody cared' "$@" |
	sort -u
