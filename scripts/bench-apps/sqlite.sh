#!/bin/sh
# sqlite.sh ROWS.csv: make bench-apps's sqlite3 workload.  Runs sqlite.sql (beside this script)
# on a new database in a directory of its own on a tmpfs (/dev/shm; $TMPDIR or /tmp when there is
# none), so that the run times sqlite3 and not a disk, and removes the directory, always.
set -u
csv=${1:-}
if [ ! -f "$csv" ] || [ ! -r "$csv" ]; then
	echo "sqlite.sh: '$csv': not a readable file (make it with scripts/bench-apps/inputs.py)" >&2
	exit 2
fi
csv=$(realpath "$csv")
sql=$(dirname "$(realpath "$0")")/sqlite.sql
command -v sqlite3 >/dev/null ||
	{ echo "sqlite.sh: sqlite3: not found (scripts/bench-apps/install.sh installs it)" >&2; exit 1; }

base=/dev/shm
[ -d "$base" ] && [ -w "$base" ] || base=${TMPDIR:-/tmp}
dir=$(mktemp -d "$base/copyperf-sqlite.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# sqlite.sql imports rows.csv from the directory it runs in.
ln -s "$csv" "$dir/rows.csv" || exit 1
cd "$dir" || exit 1
sqlite3 -batch -bail bench.db <"$sql"
