#!/bin/sh
# The module for the seed's board: built against Debian's linux-source-6.1
# configured with mpc83xx_defconfig (the MPC8313's own), with no warning, for a
# 32-bit PowerPC kernel of that exact release, with the line copy's dcbz and dcbt.
# usage: test-kmod.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
work=$top/build/kmod-ppc32
cross=powerpc-linux-gnu-
. "$top/tests/tally.sh"
mkdir -p "$work"

# Leftovers of an earlier release or configuration, which preparing the tree removes.
# shellcheck source=../cache-dir.sh
. "$here/../cache-dir.sh"
stale_build=$cache/ppc32/mpc83xx-000000000000 stale_source=$cache/linux-source-0.0-stale
mkdir -p "$stale_build" "$stale_source" && touch "$stale_build/.built" "$stale_source/.unpacked"
if ! tree=$("$here/kernel-tree.sh" mpc83xx); then
	echo "test-kmod.sh: the mpc83xx kernel tree could not be prepared" >&2
	exit 1
fi
if [ ! -e "$stale_build" ] && [ ! -e "$stale_source" ] && [ -f "$tree/.built" ]; then
	ok "a build under a stale key and another version's source are removed, this one kept"
else
	bad "stale cache entries left: $(ls -d "$stale_build" "$stale_source" 2>/dev/null)"
fi
if ko=$("$top/scripts/kernel/build-module.sh" "$tree" "$work/mpc83xx" ARCH=powerpc \
	CROSS_COMPILE=$cross 2>"$work/build.log"); then
	ok "the module builds against $tree"
else
	bad "the module build: $(tail -n 5 "$work/build.log")"
	tally
	exit 1
fi
if grep -qi 'warning' "$work/build.log"; then
	bad "the build warns:"
	grep -i 'warning' "$work/build.log"
else
	ok "no compiler or modpost warning"
fi

header=$(${cross}readelf -h "$ko")
if echo "$header" | grep -q 'Class: *ELF32' && echo "$header" | grep -q 'Machine: *PowerPC$'; then
	ok "copyperf.ko is a 32-bit PowerPC object"
else
	bad "copyperf.ko is not 32-bit PowerPC: $(echo "$header" | grep -E 'Class|Machine')"
fi
release=$(cat "$tree/include/config/kernel.release")
vermagic=$(${cross}objcopy -O binary -j .modinfo "$ko" /dev/stdout | tr '\0' '\n' |
	sed -n 's/^vermagic=//p')
case $vermagic in
"$release "*) ok "vermagic '$vermagic' matches the tree ($release)" ;;
*) bad "vermagic '$vermagic' does not match the tree's release $release" ;;
esac
# The routine offered as copyperf_lines holds the cache-line path.
body=$(${cross}objdump -d "$ko" |
	awk '$2 == "<copyperf_ppc_line_copy>:" { on = 1; next } on && /^$/ { exit } on')
if echo "$body" | grep -qw dcbz && echo "$body" | grep -q dcbt; then
	ok "the module's copyperf_ppc_line_copy has dcbz and dcbt"
else
	bad "the module's copyperf_ppc_line_copy lacks dcbz or dcbt"
fi
tally
