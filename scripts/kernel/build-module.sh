#!/bin/sh
# Builds kmod/ against a kernel tree in a directory of its own, so builds for
# several kernels or architectures never share objects, and prints the .ko's path.
#   build-module.sh KDIR OUTDIR [ARCH=... CROSS_COMPILE=...]
set -eu
[ $# -ge 2 ] || { echo "usage: build-module.sh KDIR OUTDIR [MAKE VARIABLES]" >&2; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
kdir=$1 out=$2
shift 2
[ -f "$kdir/Makefile" ] || { echo "build-module.sh: no kernel build tree at '$kdir'" >&2; exit 1; }
# From scratch each time (2 s): an incremental external build here once linked a
# stale copyperf.mod.o whose symbol versions no longer matched the code.
rm -rf "$out"
mkdir -p "$out/shim"
out=$(cd "$out" && pwd)
cp "$top"/kmod/Kbuild "$top"/kmod/*.c "$top"/kmod/*.h "$out/"
cp "$top"/kmod/shim/*.h "$out/shim/"
# Not the calling make's variables (CC=clang from make test-kernel CC=clang): the module is
# built as its kernel was, with what the caller names here only.
env -u MAKEFLAGS -u MFLAGS -u LLVM -u KCFLAGS \
	make -s -C "$kdir" M="$out" COPYPERF_SRC="$top" "$@" modules >&2
echo "$out/copyperf.ko"
