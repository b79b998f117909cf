#!/bin/sh
# Installs the Debian packages make bench-apps runs, those that are missing (as root; else it
# prints the apt-get command and fails: scripts/ensure-packages.sh).
#
# The programs: redis-server and redis-tools (redis-benchmark, redis-cli), sqlite3, python3,
# xz-utils, zstd, gzip and lz4; wamerican's word list is what the text inputs are drawn from;
# linux-perf for each program's share of time in the copies.
# lz4 joins the other compressors because memcpy is a visible share of its time: under perf
# record -e cpu-clock, `lz4 -dc` spends more of its samples in memcpy than git (log -p, repack)
# does, and tar extracting many small files next to none, its copies being the kernel's.
set -eu
exec "$(dirname "$0")/../ensure-packages.sh" redis-server redis-tools sqlite3 python3 xz-utils zstd gzip \
	lz4 wamerican linux-perf
