#!/bin/sh
# Configures and builds a kernel from Debian's linux-source-6.1 and prints its
# build directory: the tree an external module is built against (make -C <path>
# M=...), holding the image, Module.symvers and the prepared headers.
#   kernel-tree.sh NAME ARCH BASE_CONFIG [FRAGMENT]
# NAME: the build's place under the cache (e.g. ppc32/pmac32); ARCH: powerpc
# (cross-built) or x86_64 (native, bzImage too); BASE_CONFIG: a make target
# (pmac32_defconfig, tinyconfig...); FRAGMENT: Kconfig lines merged over it
# with the tree's merge_config.sh, each checked to have taken.
#
# The unpacked source and each build are cached under $COPYPERF_CACHE (default
# /var/cache/copyperf), a build keyed by the source version, the compiler, the
# base and the fragment's content; one preparer at a time per cache. Builds
# under keys no longer made, and other versions' sources, are removed.
set -eu
[ $# -ge 3 ] || { echo "usage: kernel-tree.sh NAME ARCH BASE_CONFIG [FRAGMENT]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
name=$1 arch=$2 base=$3 fragment=${4:-}
# shellcheck source=../cache-dir.sh
. "$here/../cache-dir.sh"
jobs=${JOBS:-$(nproc)}

case $arch in
powerpc) cross=powerpc-linux-gnu- images=vmlinux compiler=gcc-powerpc-linux-gnu ;;
x86_64) cross='' images="vmlinux bzImage" compiler=gcc ;;
*) echo "kernel-tree.sh: unknown ARCH '$arch': powerpc or x86_64" >&2; exit 2 ;;
esac
[ -z "$fragment" ] || [ -f "$fragment" ] ||
	{ echo "kernel-tree.sh: no fragment '$fragment'" >&2; exit 2; }

"$here/../ensure-packages.sh" linux-source-6.1 $compiler make flex bison bc \
	libssl-dev libelf-dev xz-utils >&2

version=$(dpkg-query -W -f='${Version}' linux-source-6.1)
src=$cache/linux-source-$version
work=$cache # kernel-lock.sh's
# shellcheck source=kernel-lock.sh
. "$here/kernel-lock.sh"

# Another version's source (linux-source-6.1 upgraded) serves no build any more: 1.5 GB.
for old in "$cache"/linux-source-*; do
	[ "$old" = "$src" ] || rm -rf "$old"
done
if [ ! -f "$src/.unpacked" ]; then
	echo "unpacking linux-source-6.1 $version into $src" >&2
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$src.tmp" --strip-components=1
	touch "$src.tmp/.unpacked"
	mv "$src.tmp" "$src"
fi

key=$( { echo "$src $arch $base"; ${cross}gcc --version | head -1;
	[ -z "$fragment" ] || cat "$fragment"; } | sha256sum | cut -c1-12)
out=$cache/$name-$key
# This name's builds under other keys (its source, compiler, base or fragment changed) are
# never used again: 0.5-2 GB each.
for old in "$cache/$name"-*; do
	case ${old#"$cache/$name-"} in
	*[!0-9a-f]*) ;;
	????????????) [ "$old" = "$out" ] || rm -rf "$old" ;;
	esac
done
if [ ! -f "$out/.built" ]; then
	echo "building the $name kernel in $out (-j$jobs)" >&2
	rm -rf "$out"
	mkdir -p "$out"
	# Without the calling make's variables (make test CC=clang would build the kernel with
	# clang under gcc's key) or Kbuild's own from the environment: the key's compiler only.
	kmake() {
		env -u MAKEFLAGS -u MFLAGS -u LLVM -u KCFLAGS make -s -C "$src" O="$out" ARCH="$arch" \
			${cross:+CROSS_COMPILE=$cross} CC="${cross}gcc" "$@"
	}
	# Its own output (tinyconfig lists every fragment it merges) says nothing to a test.
	kmake "$base" >/dev/null
	if [ -n "$fragment" ]; then
		# Kconfig warns about each reassigned symbol; the checks below say what matters.
		"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$fragment" \
			>/dev/null
		kmake olddefconfig >/dev/null 2>&1
		# A symbol Kconfig silently refused (a dependency) would make a different kernel.
		grep '^CONFIG_' "$fragment" | while read -r line; do
			grep -qx "$line" "$out/.config" ||
				{ echo "kernel-tree.sh: $name: '$line' did not take" >&2; exit 1; }
		done
		grep '^# CONFIG_.* is not set' "$fragment" | while read -r _ sym _; do
			! grep -q "^$sym=" "$out/.config" ||
				{ echo "kernel-tree.sh: $name: '$sym' is still on" >&2; exit 1; }
		done
	fi
	# modules writes Module.symvers, without which modpost warns about every symbol.
	kmake -j"$jobs" $images modules >&2
	kmake modules_prepare >&2
	touch "$out/.built"
fi
echo "$out"
