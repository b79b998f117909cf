#!/bin/sh
# test-preload: programs run with and without LD_PRELOAD=libcopyperf-preload.so give identical
# output, and the shim really provides memcpy, memmove and mempcpy when preloaded.
# Usage: run.sh PRELOAD_SO PROBE
set -u
so=$(realpath "$1") probe=$2
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../tally.sh"

"$probe" >"$tmp/plain" && LD_PRELOAD=$so "$probe" >"$tmp/preloaded" &&
	[ -s "$tmp/plain" ] && cmp -s "$tmp/plain" "$tmp/preloaded" &&
	ok "probe: identical copies with and without the shim ($(wc -l <"$tmp/plain") lines)" ||
	bad "probe: output differs with the shim (diff $tmp/plain $tmp/preloaded)"

LD_PRELOAD=$so "$probe" --where >"$tmp/where"
if [ "$(grep -c ": $so\$" "$tmp/where")" = 3 ]; then
	ok "probe: memcpy, memmove and mempcpy resolve to the shim"
else
	bad "probe: not every symbol resolves to $so: $(tr '\n' ' ' <"$tmp/where")"
fi
"$probe" --where >"$tmp/where-plain"
grep -q "libcopyperf" "$tmp/where-plain" &&
	bad "probe: resolves to libcopyperf without LD_PRELOAD" ||
	ok "probe: without LD_PRELOAD the C library provides them"

# A program we did not write: sort moves its lines with memcpy/memmove.
awk 'BEGIN { srand(7); for (i = 0; i < 200000; i++) printf "%d %s\n", int(rand() * 1e9), substr("abcdefghijklmnopqrstuvwxyz", 1 + i % 26) }' >"$tmp/lines"
sort "$tmp/lines" >"$tmp/sorted" && LD_PRELOAD=$so sort "$tmp/lines" >"$tmp/sorted-shim" &&
	cmp -s "$tmp/sorted" "$tmp/sorted-shim" &&
	ok "sort: identical output with the shim" || bad "sort: output differs with the shim"
LD_DEBUG=bindings LD_PRELOAD=$so sort "$tmp/lines" 2>"$tmp/bindings" >/dev/null
grep -q "to $so .*symbol \`mem\(cpy\|move\|pcpy\)'" "$tmp/bindings" &&
	ok "sort: its memcpy/memmove calls bind to the shim (LD_DEBUG=bindings)" ||
	bad "sort: no memcpy/memmove binding to the shim in LD_DEBUG=bindings"

tally
