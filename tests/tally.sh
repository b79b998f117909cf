# Sourced by the test scripts: counts the checks and ends with the line CI reads.
#   ok [WHAT]     a check passed (WHAT, when given, is printed)
#   bad WHAT      a check failed: printed as "FAIL: WHAT"
#   tally [NAME]  prints "[NAME: ]N passed, N failed"; succeeds only when none failed
#   only_clock_note FILE
#                 FILE (a run's stderr) holds nothing but, where reading the clock is slow
#                 (under TCG about 1 us), copyperf's note that results were short beside it
#   only_load_notes FILE ERE
#                 FILE holds nothing but lines matching ERE and the notes copyperf gives as the
#                 machine's load or clock has it: results short beside the clock, threads'
#                 starts lying apart
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
# copyperf's note that results were short beside the clock (a basic and an extended expression)
clock_note='^copyperf: note: .* results took under .* reading the clock costs here: .* raise --total$'
only_clock_note() {
	! grep -v "$clock_note" "$1" | grep -q .
}
only_load_notes() {
	! grep -v -E -e "$clock_note" -e "^copyperf: note: in [0-9]+ measurements the threads' starts still lay " \
		-e "$2" "$1" | grep -q .
}
