#!/bin/sh
# Prepares a 32-bit PowerPC kernel tree from Debian's linux-source-6.1 and
# prints its path: the build directory an external module is built against
# (make -C <path> M=...), holding vmlinux and Module.symvers.
#
#   kernel-tree.sh mpc83xx    mpc83xx_defconfig as shipped (the MPC8313's own)
#   kernel-tree.sh pmac32     pmac32_defconfig trimmed by pmac32-trim.config,
#                             bootable in qemu-system-ppc -M mac99
#
# The unpacked source and each configured build are cached under
# $COPYPERF_CACHE (default /var/cache/copyperf) and rebuilt only when the
# source package, the compiler or the configuration changes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
flavor=${1:?usage: kernel-tree.sh mpc83xx|pmac32}
cache=${COPYPERF_CACHE:-/var/cache/copyperf}/ppc32
cross=powerpc-linux-gnu-
jobs=${JOBS:-$(nproc)}

case $flavor in
mpc83xx) defconfig=mpc83xx_defconfig fragment= ;;
pmac32) defconfig=pmac32_defconfig fragment=$here/pmac32-trim.config ;;
*) echo "kernel-tree.sh: unknown flavor '$flavor': mpc83xx or pmac32" >&2; exit 2 ;;
esac

"$here/../ensure-packages.sh" linux-source-6.1 gcc-powerpc-linux-gnu make flex bison bc \
	libssl-dev libelf-dev xz-utils >&2

version=$(dpkg-query -W -f='${Version}' linux-source-6.1)
src=$cache/linux-source-$version
mkdir -p "$cache"
# One preparer at a time per cache: a parallel run waits instead of racing the unpack.
exec 9>"$cache/.lock"
flock 9

if [ ! -f "$src/.unpacked" ]; then
	echo "unpacking linux-source-6.1 $version into $src" >&2
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$src.tmp" --strip-components=1
	touch "$src.tmp/.unpacked"
	mv "$src.tmp" "$src"
fi

key=$( { echo "$version $defconfig"; ${cross}gcc --version | head -1;
	[ -z "$fragment" ] || cat "$fragment"; } | sha256sum | cut -c1-12)
out=$cache/$flavor-$key
if [ ! -f "$out/.built" ]; then
	echo "building the $flavor kernel in $out (-j$jobs)" >&2
	rm -rf "$out"
	mkdir -p "$out"
	kmake() { make -s -C "$src" O="$out" ARCH=powerpc CROSS_COMPILE=$cross "$@"; }
	kmake "$defconfig" >&2
	if [ -n "$fragment" ]; then
		cat "$fragment" >>"$out/.config"
		# Kconfig warns about each reassigned symbol; the checks below say what matters.
		kmake olddefconfig >/dev/null 2>&1
		# A symbol Kconfig silently refused (a dependency) would make a different kernel.
		grep '^CONFIG_' "$fragment" | while read -r line; do
			grep -qx "$line" "$out/.config" ||
				{ echo "kernel-tree.sh: $flavor: '$line' did not take" >&2; exit 1; }
		done
		grep '^# CONFIG_.* is not set' "$fragment" | while read -r _ sym _; do
			! grep -q "^$sym=" "$out/.config" ||
				{ echo "kernel-tree.sh: $flavor: '$sym' is still on" >&2; exit 1; }
		done
	fi
	# modules writes Module.symvers, without which modpost warns about every symbol.
	kmake -j"$jobs" vmlinux modules >&2
	kmake modules_prepare >&2
	touch "$out/.built"
fi
echo "$out"
