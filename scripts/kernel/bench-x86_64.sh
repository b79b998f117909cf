#!/bin/sh
# Runs `copyperf --kernel ARGS` in the QEMU guest of x86_64-guest.sh and prints
# its output: the in-kernel table without a machine of that kernel at hand.
#   bench-x86_64.sh STATIC_COPYPERF [COPYPERF ARGS...]
# e.g. make BUILD=build/static STATIC=-static build/static/copyperf &&
#      scripts/kernel/bench-x86_64.sh build/static/copyperf -r memcpy,copy_to_user
set -eu
[ $# -ge 1 ] || { echo "usage: bench-x86_64.sh STATIC_COPYPERF [ARGS...]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
copyperf=$1
shift
work=$(cd "$here/../.." && pwd)/build/kernel-bench
. "$here/kernel-lock.sh"
run=$work/run
{
	echo '#!/bin/sh'
	echo 'insmod ./copyperf.ko || exit 1'
	printf 'copyperf --kernel -q'
	for a in "$@"; do printf " '%s'" "$(printf '%s' "$a" | sed "s/'/'\\\\''/g")"; done
	echo
} >"$run"
chmod +x "$run"
status=0
"$here/x86_64-guest.sh" "$work" 1800 "$run" "$copyperf" || status=$?
sed '/^==== dmesg/,$d' "$work/results.txt"
exit $status
