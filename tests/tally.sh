# Sourced by the test scripts: counts the checks and ends with the line CI reads.
#   ok [WHAT]     a check passed (WHAT, when given, is printed)
#   bad WHAT      a check failed: printed as "FAIL: WHAT"
#   tally [NAME]  prints "[NAME: ]N passed, N failed"; succeeds only when none failed
# shellcheck shell=sh
passed=0
failed=0
ok() {
	passed=$((passed + 1))
	[ $# -eq 0 ] || echo "ok   $*"
}
bad() {
	failed=$((failed + 1))
	echo "FAIL: $*"
}
tally() {
	echo "${1:+$1: }$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
