# Sourced by the test scripts: counts the checks and ends with the line CI reads.
#   ok [WHAT]     a check passed (WHAT, when given, is printed)
#   bad WHAT      a check failed: printed as "FAIL: WHAT"
#   tally [NAME]  prints "[NAME: ]N passed, N failed"; succeeds only when none failed
#   only_clock_note FILE
#                 FILE (a run's stderr) holds nothing but, where reading the clock is slow
#                 (under TCG about 1 us), copyperf's note that results were short beside it
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
only_clock_note() {
	! grep -v '^copyperf: note: .* results took under .* reading the clock costs here: .* raise --total$' "$1" |
		grep -q .
}
