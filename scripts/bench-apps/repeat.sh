#!/bin/sh
# repeat.sh N CMD [ARGS...]: runs CMD N times, one after the other, for a workload that one run
# of CMD makes too short to time.  The first run's standard output is the workload's, which
# `copyperf program --check` compares between the two sides; the later runs' goes to /dev/null,
# so that the compared output stays one run's size (a decompressor's later runs are checked by
# the checksum of the content in its own input, which it verifies).  Stops at the first failure,
# with its exit status.
set -u
case ${1:-} in
'' | *[!0-9]* | 0*)
	echo "repeat.sh: '${1:-}': the count must be a whole number from 1" >&2
	exit 2
	;;
esac
n=$1
shift
[ $# -gt 0 ] || { echo "repeat.sh: no command to repeat" >&2; exit 2; }
"$@" || exit
i=1
while [ "$i" -lt "$n" ]; do
	"$@" >/dev/null || exit
	i=$((i + 1))
done
