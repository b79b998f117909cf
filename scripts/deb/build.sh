#!/bin/sh
# make deb: builds the four packages from a copy of this tree in OUTDIR/copyperf-VERSION, so
# dpkg-buildpackage leaves its .debs, .buildinfo and .changes in OUTDIR (it writes them to the
# parent of the tree it builds), and neither debian/'s work files nor a build with Debian's
# flags touch the checkout. The -dbgsym packages are left out: build/deb holds the four to install.
#   build.sh OUTDIR VERSION      (VERSION: the Makefile's, which debian/changelog must carry)
set -eu
[ $# -eq 2 ] || { echo "usage: build.sh OUTDIR VERSION" >&2; exit 2; }
out=$1 version=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
changelog=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
[ "$changelog" = "$version" ] || {
	echo "build.sh: debian/changelog says $changelog, the Makefile's VERSION is $version: add a changelog entry" >&2
	exit 1
}
mkdir -p "$out"
out=$(cd "$out" && pwd)
src=$out/copyperf-$version
rm -rf "$src" "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo
mkdir -p "$src"
(cd "$top" && tar -c --exclude=./build --exclude=./.git .) | tar -x -C "$src"
cd "$src"
DEB_BUILD_OPTIONS="parallel=2 noautodbgsym ${DEB_BUILD_OPTIONS:-}" dpkg-buildpackage -us -uc -b
rm -rf "$src"
ls "$out"/*.deb
