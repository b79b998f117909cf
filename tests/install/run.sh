#!/bin/sh
# make install: the files land where the README says, under DESTDIR and PREFIX, a program
# builds against them with pkg-config, statically and dynamically, and an installed command
# finds the shipped distributions.
# usage: run.sh (from the top of the tree; MAKE, CC and DIST_FINDER from the environment)
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

# The shipped distributions, byte for byte, with their licence and origin.
share=share/copyperf/distributions
for f in data/distributions/*; do
	cmp -s "$f" "$tmp/stage/usr/$share/${f##*/}" && ok || bad "DESTDIR install lacks usr/$share/${f##*/}"
done

# An installed command finds them beside itself: <prefix>/bin/../share/copyperf, which comes
# before DATADIR (/usr here) and this tree's data/; the answer names the directory, so this
# tree cannot pass for the install.  HOOK(-d): until copyperf has -d, the finder stands in for
# it, copied into bin/ beside it with the same distribution.o; once it has, expect_found runs
# the installed `copyperf -d all` instead (a dry run or a short replay) and checks its output.
finder=${DIST_FINDER:?the finder program mk/20-install.mk builds}
make_finder() { # PREFIX
	$make --no-print-directory -s PREFIX="$1" "$finder" >"$tmp/log" 2>&1 || bad "make the finder: $(cat "$tmp/log")"
}
# expect_found BIN DIR [VAR=VALUE]: all twenty found in DIR and read
expect_found() {
	env -u COPYPERF_DATADIR ${3:+"$3"} "$1" all >"$tmp/found" 2>"$tmp/err"
	st=$?
	if [ $st -eq 0 ] && [ "$(head -1 "$tmp/found")" = "dir $2" ] &&
		[ "$(grep -c " $2/Mem[a-z]*_[0-8F][a-z]*\.csv\$" "$tmp/found")" -eq 20 ] &&
		grep -q '^memcpy_fleet memcpy 1941 261126 ' "$tmp/found" &&
		grep -q '^memmove_7 memmove 81 204 ' "$tmp/found"; then
		ok
	else
		bad "$1${3:+ with $3}: exit $st, not the twenty in $2: $(head -3 "$tmp/found") $(cat "$tmp/err")"
	fi
}
make_finder /usr
cp "$finder" "$tmp/stage/usr/bin/find_distributions"
expect_found "$tmp/stage/usr/bin/find_distributions" "$tmp/stage/usr/$share"
# A moved prefix is found where it is now, not where it was installed.
mv "$tmp/stage/usr" "$tmp/moved"
moved=$tmp/moved/bin/find_distributions
expect_found "$moved" "$tmp/moved/$share"
# COPYPERF_DATADIR wins, and one without distributions/ is named in the error.
expect_found "$moved" "$tmp/moved/$share" COPYPERF_DATADIR="$tmp/moved/share/copyperf"
COPYPERF_DATADIR="$tmp" "$moved" fleet >"$tmp/found" 2>"$tmp/err"
[ $? -eq 2 ] && grep -qF "'fleet': COPYPERF_DATADIR=$tmp has no distributions/" "$tmp/err" &&
	ok || bad "COPYPERF_DATADIR without distributions/: $(cat "$tmp/err")"

# A real prefix, then a user's build through pkg-config.
$make --no-print-directory -s install PREFIX="$tmp/prefix" >"$tmp/log" 2>&1 || bad "make install PREFIX: $(cat "$tmp/log")"
# Away from its prefix, a command finds the data in the DATADIR compiled in for this PREFIX:
# the install rebuilt the object for it, though the first one built it for /usr.
make_finder "$tmp/prefix"
mkdir -p "$tmp/away/bin" && cp "$finder" "$tmp/away/bin/"
expect_found "$tmp/away/bin/find_distributions" "$tmp/prefix/$share"
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
flags=$(pkg-config --cflags --libs copyperf) && ok || bad "pkg-config does not know copyperf"
# shellcheck disable=SC2086
$cc -o "$tmp/dyn" tests/install/use_library.c $flags && LD_LIBRARY_PATH="$tmp/prefix/lib" "$tmp/dyn" >/dev/null &&
	ok || bad "dynamic build against the installed library"
# shellcheck disable=SC2086
$cc -o "$tmp/static" tests/install/use_library.c $(pkg-config --cflags copyperf) "$tmp/prefix/lib/libcopyperf.a" &&
	"$tmp/static" >/dev/null && ok || bad "static build against the installed library"

tally install
