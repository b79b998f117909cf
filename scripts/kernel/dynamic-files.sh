#!/bin/sh
# The files a dynamically linked program needs in a guest that has no C library of its own:
# the program, its dynamic loader and the libraries ldd names, as host paths, one per line.
# The guest runs it through that loader: ./ld-linux-x86-64.so.2 --library-path /guest ./PROGRAM
#   dynamic-files.sh [-r ROOT] PROGRAM
# -r: PROGRAM is a path inside the root ROOT, ldd runs there, and the paths printed are ROOT's.
set -eu
root=
if [ "${1:-}" = -r ]; then
	root=$2
	shift 2
fi
[ $# -eq 1 ] || { echo "usage: dynamic-files.sh [-r ROOT] PROGRAM" >&2; exit 2; }
if [ -n "$root" ]; then libs=$(chroot "$root" ldd "$1"); else libs=$(ldd "$1"); fi
echo "$root$1"
echo "$libs" | sed -n "s|.*=> \(/[^ ]*\) .*|$root\1|p; s|^[[:space:]]*\(/[^ ]*ld-linux[^ ]*\) .*|$root\1|p"
