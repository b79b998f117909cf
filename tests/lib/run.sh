#!/bin/sh
# libcheck as built (test-lib-quick: run.sh LIBCHECK), or under ASan/UBSan, once per ISA this
# CPU has and with each threshold path forced down to small sizes (test-lib: run.sh LIBCHECK
# SANITIZED_LIBCHECK "ISA ..." "VAR=VALUE ..." ...).  Every run must exit 0 with
# "N passed, 0 failed".
set -u
libcheck=$1
log=$(mktemp) && trap 'rm -f "$log"' EXIT
. "$(dirname "$0")/../tally.sh"

run() { # label, then env assignments and the program
	label=$1
	shift
	env "$@" >"$log" 2>&1
	st=$?
	if [ "$st" -eq 0 ] && tail -1 "$log" | grep -q '^[0-9]* passed, 0 failed$'; then
		ok "$label: $(tail -1 "$log")"
	else
		bad "$label (exit $st):"
		grep -E '^FAIL|ERROR|runtime error' "$log" | head -20
		tail -3 "$log"
	fi
}

if [ $# -eq 1 ]; then
	run "libcheck, defaults" "$libcheck"
	tally
	exit
fi
sanitized=$2 isas=$3
shift 3
for forced in "$@"; do
	# shellcheck disable=SC2086 # the assignments are meant to split
	run "libcheck, $forced" $forced "$libcheck"
done
run "libcheck under ASan/UBSan" "$sanitized"
for isa in $isas; do
	run "libcheck, COPYPERF_ISA=$isa" COPYPERF_ISA="$isa" "$libcheck"
done
tally
