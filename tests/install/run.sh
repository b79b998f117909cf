#!/bin/sh
# make install: the files land where the README says, under DESTDIR and PREFIX, and a
# program builds against them with pkg-config, statically and dynamically.
# usage: run.sh (from the top of the tree; MAKE and CC from the environment)
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../tally.sh"
make=${MAKE:-make}
cc=${CC:-cc}

$make --no-print-directory -s install DESTDIR="$tmp/stage" PREFIX=/usr >"$tmp/log" 2>&1 || bad "make install DESTDIR: $(cat "$tmp/log")"
for f in bin/copyperf lib/libcopyperf.a lib/libcopyperf.so include/copyperf.h lib/pkgconfig/copyperf.pc \
	$INSTALL_CHECK_EXTRA; do
	[ -f "$tmp/stage/usr/$f" ] && ok || bad "DESTDIR install lacks usr/$f"
done
grep -q '^prefix=/usr$' "$tmp/stage/usr/lib/pkgconfig/copyperf.pc" && ok || bad "copyperf.pc prefix is not PREFIX"
[ -x "$tmp/stage/usr/bin/copyperf" ] && "$tmp/stage/usr/bin/copyperf" --version >/dev/null && ok || bad "installed copyperf does not run"

# A real prefix, then a user's build through pkg-config.
$make --no-print-directory -s install PREFIX="$tmp/prefix" >"$tmp/log" 2>&1 || bad "make install PREFIX: $(cat "$tmp/log")"
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
flags=$(pkg-config --cflags --libs copyperf) && ok || bad "pkg-config does not know copyperf"
# shellcheck disable=SC2086
$cc -o "$tmp/dyn" tests/install/use_library.c $flags && LD_LIBRARY_PATH="$tmp/prefix/lib" "$tmp/dyn" >/dev/null &&
	ok || bad "dynamic build against the installed library"
# shellcheck disable=SC2086
$cc -o "$tmp/static" tests/install/use_library.c $(pkg-config --cflags copyperf) "$tmp/prefix/lib/libcopyperf.a" &&
	"$tmp/static" >/dev/null && ok || bad "static build against the installed library"

tally install
