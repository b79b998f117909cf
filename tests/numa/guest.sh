#!/bin/sh
# Runs inside the two-node guest as /guest/run (see tests/numa/run.sh). Prints "N passed, N failed".
set -u
. ./tally.sh
. ./check.sh
copyperf() { ./ld-linux-x86-64.so.2 --library-path /guest ./copyperf "$@"; }
# A short verified run: copies on the hot cache, 4 KiB chunks through 64 KiB buffers.
run() { copyperf -q -c hot -s 4K -t 256K -n 1 -r memcpy "$@"; }
# The JSON's pages.nodes, as the text between its brackets.
nodes_of() { sed -n 's/.*"nodes":\[\([^]]*\)\].*/\1/p' "$1"; }
bytes_of() { sed -n 's/.*"pages":{[^}]*"page_size":[0-9]*,"bytes":\([0-9]*\).*/\1/p' "$1"; }

check "the kernel sees two nodes" test -d /sys/devices/system/node/node1
if run -f json >/tmp/j.json 2>/tmp/err; then
	grep -q '"numa_nodes":\[{"node":0,"cpus":\[0\]},{"node":1,"cpus":\[1\]}\]' /tmp/j.json &&
		ok "the machine block lists node 0 with CPU 0 and node 1 with CPU 1" ||
		bad "numa_nodes: $(grep -o '"numa_nodes":[^]]*]' /tmp/j.json)"
else
	bad "copyperf -f json: $(cat /tmp/err)"
fi

# Each node alone: every byte of the buffers there, the copies verified, and no note that the
# machine has one node: nothing on stderr but the clock's note.
for node in 0 1; do
	if run -j 2 --numa $node -f json >/tmp/n.json 2>/tmp/err; then
		total=$(bytes_of /tmp/n.json)
		[ "$(nodes_of /tmp/n.json)" = "{\"node\":$node,\"bytes\":$total}" ] &&
			grep -q '"verified":true' /tmp/n.json && ! grep -q '"verified":false' /tmp/n.json &&
			ok "--numa $node -j 2: all $total bytes on node $node, verified" ||
			bad "--numa $node: pages $(grep -o '"pages":{[^}]*}' /tmp/n.json)"
		only_clock_note /tmp/err && ok "--numa $node: nothing else on stderr" ||
			bad "--numa $node: stderr $(cat /tmp/err)"
	else
		bad "--numa $node: $(cat /tmp/err)"
	fi
done
# The table says so too.
run --numa 1 >/tmp/t 2>&1 && grep -q '^buffers: .*; all on node 1 (asked: --pages default, --numa 1)$' /tmp/t &&
	ok "the table: all on node 1" || bad "the table's buffers line: $(grep buffers /tmp/t || cat /tmp/t)"

# Interleave: half the pages on each node (a 1 MiB buffer: 256 pages each, sampled).
if run -b 1M --numa interleave -f json >/tmp/i.json 2>/tmp/err; then
	total=$(bytes_of /tmp/i.json)
	n=$(nodes_of /tmp/i.json)
	b0=$(echo "$n" | sed -n 's/.*{"node":0,"bytes":\([0-9]*\)}.*/\1/p')
	b1=$(echo "$n" | sed -n 's/.*{"node":1,"bytes":\([0-9]*\)}.*/\1/p')
	[ -n "$b0" ] && [ -n "$b1" ] && [ $((b0 + b1)) -eq "$total" ] &&
		[ $((b0 * 10)) -ge $((total * 4)) ] && [ $((b1 * 10)) -ge $((total * 4)) ] &&
		ok "--numa interleave: $b0 and $b1 of $total bytes on nodes 0 and 1" ||
		bad "--numa interleave: pages on nodes [$n] of $total bytes"
else
	bad "--numa interleave: $(cat /tmp/err)"
fi
# Local, and first touch without --numa: each thread's buffers on its own CPU's node.
for how in "--numa local" ""; do
	# shellcheck disable=SC2086
	if run -j 2 $how -f json >/tmp/l.json 2>/tmp/err; then
		total=$(bytes_of /tmp/l.json)
		half=$((total / 2))
		[ "$(nodes_of /tmp/l.json)" = "{\"node\":0,\"bytes\":$half},{\"node\":1,\"bytes\":$half}" ] &&
			ok "-j 2 ${how:-(first touch)}: each thread's $half bytes on its CPU's node" ||
			bad "-j 2 ${how:-(first touch)}: pages on nodes [$(nodes_of /tmp/l.json)] of $total bytes"
	else
		bad "-j 2 $how: $(cat /tmp/err)"
	fi
done

# A node that is not there: exit 2, one line.
copyperf -s 4K --numa 2 >/tmp/out 2>/tmp/err
st=$?
[ "$st" -eq 2 ] && [ "$(wc -l </tmp/err)" -eq 1 ] &&
	grep -qxF 'copyperf: --numa 2: no such node (this machine has 2 NUMA nodes)' /tmp/err &&
	ok "--numa 2: exit 2, one line" || bad "--numa 2: exit $st, $(cat /tmp/err)"
tally
