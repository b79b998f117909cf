#!/bin/sh
# make install: the files land where the README says, under DESTDIR and PREFIX, a program
# builds against them with pkg-config, statically and dynamically, and an installed command
# finds the shipped distributions.
# usage: run.sh (from the top of the tree; MAKE and CC from the environment)
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../tally.sh"
make=${MAKE:-make}
cc=${CC:-cc}

$make --no-print-directory -s install DESTDIR="$tmp/stage" PREFIX=/usr >"$tmp/log" 2>&1 || bad "make install DESTDIR: $(cat "$tmp/log")"
for f in bin/copyperf lib/libcopyperf.a lib/libcopyperf.so include/copyperf.h lib/pkgconfig/copyperf.pc \
	lib/libcopyperf-preload.so include/copyperf_ioctl.h share/man/man1/copyperf.1; do
	[ -f "$tmp/stage/usr/$f" ] && ok || bad "DESTDIR install lacks usr/$f"
done
# On x86-64 the AVX2 and SSE2 shims in lib/glibc-hwcaps/x86-64-v3/ and x86-64-v2/, and x86-64-v4/'s
# link to the first.
if [ "$(uname -m)" = x86_64 ]; then
	hwcaps=$tmp/stage/usr/lib/glibc-hwcaps
	for level in x86-64-v3 x86-64-v2; do
		[ -f "$hwcaps/$level/libcopyperf-preload.so" ] && [ ! -L "$hwcaps/$level/libcopyperf-preload.so" ] &&
			ok || bad "DESTDIR install: no shim in lib/glibc-hwcaps/$level/"
	done
	[ "$(readlink -f "$hwcaps/x86-64-v4/libcopyperf-preload.so")" = "$(readlink -f "$tmp/stage/usr/lib/libcopyperf-preload.so")" ] &&
		ok || bad "DESTDIR install: lib/glibc-hwcaps/x86-64-v4/ not a link to the first shim"
fi
# The shared library under its versioned name, with the SONAME link and the link -lcopyperf finds.
lib=$tmp/stage/usr/lib
[ -L "$lib/libcopyperf.so.0" ] && [ -L "$lib/libcopyperf.so" ] && [ ! -L "$lib/$(readlink "$lib/libcopyperf.so.0")" ] &&
	readelf -d "$lib/libcopyperf.so" | grep -q 'SONAME.*\[libcopyperf\.so\.0\]' && ok ||
	bad "DESTDIR install: not libcopyperf.so -> libcopyperf.so.0 -> a file whose SONAME is libcopyperf.so.0"
grep -q '^prefix=/usr$' "$tmp/stage/usr/lib/pkgconfig/copyperf.pc" && ok || bad "copyperf.pc prefix is not PREFIX"
# make uninstall with the same DESTDIR and PREFIX takes back every file install wrote.
cp -r "$tmp/stage" "$tmp/gone" &&
	$make --no-print-directory -s uninstall DESTDIR="$tmp/gone" PREFIX=/usr >"$tmp/log" 2>&1 ||
	bad "make uninstall: $(cat "$tmp/log")"
left=$(find "$tmp/gone" ! -type d | sed "s|$tmp/gone||")
[ -z "$left" ] && [ ! -e "$tmp/gone/usr/lib/glibc-hwcaps" ] && ok || bad "make uninstall left: $left $(ls -d "$tmp/gone/usr/lib/glibc-hwcaps" 2>/dev/null)"
# Under a strict umask (a hardened root's) every installed file is still readable by all.
(umask 077 && $make --no-print-directory -s install DESTDIR="$tmp/umask" PREFIX=/usr >"$tmp/log" 2>&1) ||
	bad "make install under umask 077: $(cat "$tmp/log")"
private=$(find "$tmp/umask" -type f ! -perm -444 | sed "s|$tmp/umask||")
[ -z "$private" ] && ok || bad "under umask 077, not readable by all: $private"
[ -x "$tmp/stage/usr/bin/copyperf" ] && "$tmp/stage/usr/bin/copyperf" --version >/dev/null && ok || bad "installed copyperf does not run"

# The shipped distributions, byte for byte, with their licence and origin.
share=share/copyperf/distributions
for f in data/distributions/*; do
	cmp -s "$f" "$tmp/stage/usr/$share/${f##*/}" && ok || bad "DESTDIR install lacks usr/$share/${f##*/}"
done

# An installed command finds them beside itself: <prefix>/bin/../share/copyperf, which comes
# before DATADIR (/usr here) and this tree's data/; --list names the directory, so this tree
# cannot pass for the install, and all twenty replay from there.
# expect_found BIN DIR [VAR=VALUE]: --list names DIR, and -d all replays the twenty
expect_found() {
	env -u COPYPERF_DATADIR ${3:+"$3"} "$1" --list >"$tmp/found" 2>"$tmp/err" &&
		env -u COPYPERF_DATADIR ${3:+"$3"} "$1" -q -d all -w 4K -n 1 -t 1 -r memmove -f json \
			>"$tmp/replay.json" 2>>"$tmp/err"
	st=$?
	if [ $st -eq 0 ] && grep -qxF "# call mixes (-d): $2" "$tmp/found" &&
		python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]
names = sorted(x["distribution"] for x in r)
assert len(r) == 20 and all(x["verified"] for x in r), r
assert names[0] == "memcpy_0" and names[-1] == "memmove_fleet", names' "$tmp/replay.json"; then
		ok
	else
		bad "$1${3:+ with $3}: exit $st, not the twenty in $2: $(grep 'call mixes' "$tmp/found") $(cat "$tmp/err")"
	fi
}
expect_found "$tmp/stage/usr/bin/copyperf" "$tmp/stage/usr/$share"
# A moved prefix is found where it is now, not where it was installed.
mv "$tmp/stage/usr" "$tmp/moved"
moved=$tmp/moved/bin/copyperf
expect_found "$moved" "$tmp/moved/$share"
# COPYPERF_DATADIR wins, and one without distributions/ is named in the error.
expect_found "$moved" "$tmp/moved/$share" COPYPERF_DATADIR="$tmp/moved/share/copyperf"
COPYPERF_DATADIR="$tmp" "$moved" -d fleet >"$tmp/found" 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -qF "'fleet': COPYPERF_DATADIR=$tmp has no distributions/" "$tmp/err" &&
	ok || bad "COPYPERF_DATADIR without distributions/: $(cat "$tmp/err")"

# A real prefix, then a user's build through pkg-config.
$make --no-print-directory -s install PREFIX="$tmp/prefix" >"$tmp/log" 2>&1 || bad "make install PREFIX: $(cat "$tmp/log")"
# Away from its prefix, a command finds the data in the DATADIR compiled in for this PREFIX:
# the install rebuilt the object for it, though the first one built it for /usr.
mkdir -p "$tmp/away/bin" && cp "$tmp/prefix/bin/copyperf" "$tmp/away/bin/"
expect_found "$tmp/away/bin/copyperf" "$tmp/prefix/$share"
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
flags=$(pkg-config --cflags --libs copyperf) && ok || bad "pkg-config does not know copyperf"
# shellcheck disable=SC2086
$cc -o "$tmp/dyn" tests/install/use_library.c $flags && LD_LIBRARY_PATH="$tmp/prefix/lib" "$tmp/dyn" >/dev/null &&
	ok || bad "dynamic build against the installed library"
# shellcheck disable=SC2086
$cc -o "$tmp/static" tests/install/use_library.c $(pkg-config --cflags copyperf) "$tmp/prefix/lib/libcopyperf.a" &&
	"$tmp/static" >/dev/null && ok || bad "static build against the installed library"
# The module's ABI header: a client of /dev/copyperf builds against the installed one alone,
# for the ABI version of this tree.
abi=$(sed -n 's/^#define COPYPERF_ABI_VERSION \([0-9]*\)$/\1/p' include/uapi/copyperf_ioctl.h)
$cc -o "$tmp/ioctl_client" tests/install/use_ioctl_header.c $(pkg-config --cflags copyperf) &&
	"$tmp/ioctl_client" >"$tmp/abi" && grep -qx "$abi [1-9][0-9]* [1-9][0-9]*" "$tmp/abi" &&
	ok || bad "a client of the installed copyperf_ioctl.h (ABI $abi): $(cat "$tmp/abi" 2>/dev/null)"

tally install
