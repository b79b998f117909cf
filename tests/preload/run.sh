#!/bin/sh
# test-preload: programs run with and without LD_PRELOAD=libcopyperf-preload.so give identical
# output, and the shim really provides memcpy, memmove and mempcpy when preloaded.
# Usage: run.sh PRELOAD_SO PROBE
set -u
so=$(realpath "$1") probe=$2
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
pass() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }

"$probe" >"$tmp/plain" && LD_PRELOAD=$so "$probe" >"$tmp/preloaded" &&
	[ -s "$tmp/plain" ] && cmp -s "$tmp/plain" "$tmp/preloaded" &&
	pass "probe: identical copies with and without the shim ($(wc -l <"$tmp/plain") lines)" ||
	fail "probe: output differs with the shim (diff $tmp/plain $tmp/preloaded)"

LD_PRELOAD=$so "$probe" --where >"$tmp/where"
if [ "$(grep -c ": $so\$" "$tmp/where")" = 3 ]; then
	pass "probe: memcpy, memmove and mempcpy resolve to the shim"
else
	fail "probe: not every symbol resolves to $so: $(tr '\n' ' ' <"$tmp/where")"
fi
"$probe" --where >"$tmp/where-plain"
grep -q "libcopyperf" "$tmp/where-plain" &&
	fail "probe: resolves to libcopyperf without LD_PRELOAD" ||
	pass "probe: without LD_PRELOAD the C library provides them"

# A program we did not write: sort moves its lines with memcpy/memmove.
awk 'BEGIN { srand(7); for (i = 0; i < 200000; i++) printf "%d %s\n", int(rand() * 1e9), substr("abcdefghijklmnopqrstuvwxyz", 1 + i % 26) }' >"$tmp/lines"
sort "$tmp/lines" >"$tmp/sorted" && LD_PRELOAD=$so sort "$tmp/lines" >"$tmp/sorted-shim" &&
	cmp -s "$tmp/sorted" "$tmp/sorted-shim" &&
	pass "sort: identical output with the shim" || fail "sort: output differs with the shim"
LD_DEBUG=bindings LD_PRELOAD=$so sort "$tmp/lines" 2>"$tmp/bindings" >/dev/null
grep -q "to $so .*symbol \`mem\(cpy\|move\|pcpy\)'" "$tmp/bindings" &&
	pass "sort: its memcpy/memmove calls bind to the shim (LD_DEBUG=bindings)" ||
	fail "sort: no memcpy/memmove binding to the shim in LD_DEBUG=bindings"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
