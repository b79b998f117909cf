# Sourced by run.sh (with $cp, $tmp, ok and bad): too little memory for what a run needs
# (ulimit -v) is one line and exit 2, never a crash.
# shellcheck shell=sh

# AddressSanitizer reserves terabytes of address space for its shadow: no limit leaves it room.
if grep -qa __asan_init "$cp"; then
	echo "note: ulimit -v not tried on this AddressSanitizer build (make test-cli tries it)"
else
	# no_memory DESCRIPTION EXPECTED-TEXT ARGS...: under a 60 MB limit
	no_memory() {
		desc=$1 want=$2
		shift 2
		(ulimit -v 60000 && exec "$cp" -q "$@") >"$tmp/out" 2>"$tmp/err"
		st=$?
		if [ "$st" -ne 2 ]; then bad "ulimit -v, $desc: exit $st, expected 2 ($(cat "$tmp/err"))"
		elif [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -q -- "$want" "$tmp/err"; then
			bad "ulimit -v, $desc: stderr: $(cat "$tmp/err")"
		elif [ -s "$tmp/out" ]; then bad "ulimit -v, $desc: printed results anyway"
		else ok; fi
	}
	no_memory "two 1 GiB buffers" "^copyperf: --buffer: cannot map [0-9]* bytes: Cannot allocate memory$" \
		-b 1G -s 64K -t 64K -n 1
	no_memory "100000 samples of 140 points" "^copyperf: out of memory for the samples of" \
		-n 100000 -t 64K
	no_memory "a replay over 64 MiB" "^copyperf: --distribution: cannot map [0-9]* bytes: Cannot allocate memory$" \
		-d memcpy_0 -w 64M -n 1 -t 64K
	# and the same run with the memory it needs
	"$cp" -q -b 1M -s 64K -t 64K -n 1 -r memcpy >/dev/null && ok || bad "a run without the limit"
fi
