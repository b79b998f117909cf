# Sourced by run.sh (with $cp, $tmp, $fail_alloc, ok and bad): every allocation a run makes,
# failed one at a time (tests/cli/fail_alloc.c), is never a crash and never a wrong result.
# Each run either succeeds with the results it would have given (the same comparison; a
# results file that parses, every copy verified) or exits 2 with one line, leaving no file.
# shellcheck shell=sh

if grep -qa __asan_init "$cp"; then
	echo "note: allocation failures not tried on this AddressSanitizer build (make test-cli tries them)"
elif [ ! -f "$fail_alloc" ]; then
	bad "allocation failures: no shim at $fail_alloc"
else
	# each_failure NAME CHECK OUT COMMAND...: COMMAND once with every allocation in turn
	# failing; CHECK (a function) judges a run that exits 0; OUT is the file COMMAND writes.
	each_failure() {
		name=$1 judge=$2 out=$3
		shift 3
		mkdir -p "$tmp/af"
		rm -f "$out" "$tmp/count"
		FAIL_ALLOC_COUNT=$tmp/count LD_PRELOAD=$fail_alloc "$@" >"$tmp/af/base" 2>&1 ||
			{ bad "allocation failures, $name: fails without a failure: $(tail -n 3 "$tmp/af/base")"; return; }
		calls=$(cat "$tmp/count" 2>/dev/null)
		[ "${calls:-0}" -gt 0 ] || { bad "allocation failures, $name: the shim counted nothing"; return; }
		cp "$tmp/af/base" "$tmp/af/expected"
		wrong=
		ended=0
		n=1
		while [ "$n" -le "$calls" ] && [ -z "$wrong" ]; do
			rm -f "$out"
			FAIL_ALLOC_AT=$n LD_PRELOAD=$fail_alloc "$@" >"$tmp/af/stdout" 2>"$tmp/af/err"
			st=$?
			left=$(find "$tmp/af" -name '.out.*' | head -n 1)
			if [ "$st" -eq 0 ]; then
				$judge || wrong="allocation $n failed, exit 0 with other results"
			elif [ "$st" -ne 2 ]; then
				wrong="allocation $n failed: exit $st: $(head -c 300 "$tmp/af/err")"
			elif [ "$(wc -l <"$tmp/af/err")" -ne 1 ] || ! grep -q '^copyperf' "$tmp/af/err"; then
				wrong="allocation $n failed: stderr: $(head -c 300 "$tmp/af/err")"
			elif [ -e "$out" ]; then
				wrong="allocation $n failed: exit 2, yet the output file was written"
			else
				ended=$((ended + 1))
			fi
			[ -z "$left" ] || wrong="allocation $n failed: a temporary file was left: $left"
			n=$((n + 1))
		done
		[ -z "$wrong" ] && ok "allocation failures, $name: $calls allocations, $ended runs ended in one line, exit 2" ||
			bad "allocation failures, $name: $wrong"
	}
	same_output() { cmp -s "$tmp/af/stdout" "$tmp/af/expected"; }
	json_verified() {
		python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["results"]
assert r and all(x["verified"] is True for x in r)' "$out" 2>/dev/null
	}
	csv_verified() {
		python3 -c 'import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))
assert len(r) == 4 and all(x["verified"] == "true" for x in r)' "$out" 2>/dev/null
	}
	svg_written() { grep -q '</svg>' "$out"; }

	each_failure "a sweep to JSON" json_verified "$tmp/af/out.json" \
		"$cp" -q -c hot -s 4K,64 -t 64K -n 3 -r memcpy,copyperf_memcpy -f json -o "$tmp/af/out.json"
	each_failure "a replay to CSV" csv_verified "$tmp/af/out.csv" \
		"$cp" -q -d memcpy_3,memcpy_7 -w 16K -t 64K -n 2 -r memcpy,copyperf_memcpy -f csv -o "$tmp/af/out.csv"
	each_failure "two threads" true "$tmp/af/none" "$cp" -q -c flush -s 4K -t 64K -n 2 -j 2 -r memcpy
	"$cp" -q -c hot -s 4K,64 -t 64K -n 3 -r memcpy,copyperf_memcpy -f json -o "$tmp/af-a.json"
	"$cp" -q -c hot -s 4K,64 -t 64K -n 3 -r memcpy,copyperf_memcpy -f json -o "$tmp/af-b.json"
	each_failure "compare" same_output "$tmp/af/none" "$cp" compare "$tmp/af-a.json" "$tmp/af-b.json"
	each_failure "plot" svg_written "$tmp/af/out.svg" "$cp" plot "$tmp/af-a.json" "$tmp/af-b.json" -o "$tmp/af/out.svg"
fi
