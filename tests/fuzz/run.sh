#!/bin/sh
# Runs the readers' fuzzers: first every regression input (each input that ever failed), then
# SECONDS of fuzzing from the seeds (and NAME/*.dict, the words the reader looks for).  A crash, a leak, a hang (over 10 s on one input), an
# out-of-memory or a sanitizer report fails; its input is copied into NAME/regressions, to be
# committed with the fix, so that it is replayed from then on.
# usage: run.sh FUZZ_BUILD SECONDS NAME...   (FUZZ_BUILD/tests/fuzz_NAME; tests/fuzz/NAME/)
set -u
build=$1 seconds=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tally.sh"
# the sizes the readers are fuzzed to: a results file of a few points, a command line, a mix
max_len() { case $1 in options) echo 512 ;; *) echo 8192 ;; esac; }

for name in "$@"; do
	bin=$build/tests/fuzz_$name dir=$here/$name log=$build/fuzz_$name.log
	corpus=$build/corpus/$name artifacts=$build/artifacts/$name
	mkdir -p "$corpus" "$artifacts" "$dir/regressions"
	rm -f "$artifacts"/*
	limits="-timeout=10 -rss_limit_mb=2048 -max_len=$(max_len "$name")"
	regressions=$(find "$dir/regressions" -type f | sort)
	# shellcheck disable=SC2086 # the file names have no spaces: libFuzzer names them by hash
	if [ -z "$regressions" ] || "$bin" $limits $regressions >"$log" 2>&1; then
		ok "fuzz_$name: $(echo "$regressions" | grep -c .) regression inputs replayed"
	else
		bad "fuzz_$name: a regression input fails again:"
		grep -E -B2 -A12 'ERROR|Running:' "$log" | tail -n 30
		continue
	fi
	dict=
	for d in "$dir"/*.dict; do [ -f "$d" ] && dict="-dict=$d"; done
	# shellcheck disable=SC2086
	if "$bin" $limits $dict -max_total_time="$seconds" -print_final_stats=1 \
		-artifact_prefix="$artifacts/" "$corpus" "$dir/seeds" >"$log" 2>&1; then
		ok "fuzz_$name $seconds s: $(grep -o 'number_of_executed_units: *[0-9]*' "$log")"
	else
		bad "fuzz_$name:"
		grep -E -A15 '==ERROR|ERROR: libFuzzer|runtime error|SUMMARY' "$log" | head -n 40
		for a in "$artifacts"/*; do
			[ -f "$a" ] || continue
			cp "$a" "$dir/regressions/" && echo "kept as tests/fuzz/$name/regressions/$(basename "$a")"
		done
	fi
done
tally fuzz
