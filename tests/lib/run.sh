#!/bin/bash
# libcheck as built (test-lib-quick: run.sh LIBCHECK), or under ASan/UBSan, once per ISA this
# CPU has and with each threshold path forced down to small sizes (test-lib: run.sh LIBCHECK
# SANITIZED_LIBCHECK "ISA ..." "VAR=VALUE ..." ...).  Every run must exit 0 with
# "N passed, 0 failed".  The runs are independent: as many go at once as there are CPUs, and
# each one's verdict is reported in the order they were started.
set -u
libcheck=$1
dir=$(mktemp -d) && trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/../tally.sh"
cpus=$(nproc 2>/dev/null || echo 1)
runs=0

start() { # label, then env assignments and the program
	runs=$((runs + 1))
	# a CPU for each: while all are busy, the next waits for any run to end
	while [ "$(jobs -rp | wc -l)" -ge "$cpus" ]; do wait -n; done
	printf '%s\n' "$1" >"$dir/$runs.label"
	shift
	(env "$@" >"$dir/$runs.log" 2>&1; echo $? >"$dir/$runs.status") &
}

report() { # each run's verdict, in the order they were started
	wait
	i=0
	while [ "$i" -lt "$runs" ]; do
		i=$((i + 1))
		label=$(cat "$dir/$i.label") log=$dir/$i.log st=$(cat "$dir/$i.status" 2>/dev/null || echo '?')
		if [ "$st" = 0 ] && tail -1 "$log" | grep -q '^[0-9]* passed, 0 failed$'; then
			ok "$label: $(tail -1 "$log")"
		else
			bad "$label (exit $st):"
			grep -E '^FAIL|ERROR|runtime error' "$log" | head -20
			tail -3 "$log"
		fi
	done
}

if [ $# -eq 1 ]; then
	start "libcheck, defaults" "$libcheck"
	report
	tally
	exit
fi
sanitized=$2 isas=$3
shift 3
# the longest first, so that it does not run alone at the end
start "libcheck under ASan/UBSan" "$sanitized"
for forced in "$@"; do
	# shellcheck disable=SC2086 # the assignments are meant to split
	start "libcheck, $forced" $forced "$libcheck"
done
for isa in $isas; do
	start "libcheck, COPYPERF_ISA=$isa" COPYPERF_ISA="$isa" "$libcheck"
done
report
tally
