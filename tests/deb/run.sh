#!/bin/sh
# test-deb: the packages of `make deb` as a Debian user gets them.  lintian shows no error, and
# every warning it shows is one README.md lists with its reason; then, in a clean Debian 12 root
# (scripts/deb/debian-root.sh): the four install; copyperf runs and verifies; a program built
# with pkg-config runs against libcopyperf.so.0; the preload shim replaces memcpy, and records
# a mix that copyperf replays; DKMS built the module for the root's kernel headers and modprobe
# finds it; that .ko loads in the QEMU guest of test-kernel (the same Debian kernel) and answers
# the packaged copyperf --kernel; purging the four leaves nothing new under /usr, /var/lib/dkms
# and /lib/modules.
# usage: run.sh DEB_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
debs=$(cd "$1" && pwd)
. "$top/tests/tally.sh"
packages="copyperf libcopyperf0 libcopyperf-dev copyperf-dkms"
for p in $packages; do
	ls "$debs/${p}_"*.deb >/dev/null 2>&1 || { bad "no $p package in $debs"; tally deb; exit 1; }
done

# ---- lintian ---------------------------------------------------------------------------------
lintian --tag-display-limit 0 "$debs"/*.changes >"$debs/lintian.txt" 2>&1
if grep -q '^E: ' "$debs/lintian.txt"; then
	bad "lintian errors:"
	grep '^E: ' "$debs/lintian.txt"
else
	ok "lintian: no error"
fi
# A warning must be named in README.md's list (the tag in backquotes), with its reason.
unlisted=$(sed -n 's/^W: [^ ]*: \([a-z0-9-]*\).*/\1/p' "$debs/lintian.txt" | sort -u |
	while read -r tag; do grep -q "^- \`$tag\`" "$top/README.md" || echo "$tag"; done)
[ -z "$unlisted" ] && ok "lintian: $(grep -c '^W: ' "$debs/lintian.txt") warnings, each listed in README.md" ||
	bad "lintian warnings README.md does not list: $unlisted (see $debs/lintian.txt)"

# ---- the clean root --------------------------------------------------------------------------
# The ABI name is the headers directory's (NOTES.md), as debian-kernel.sh takes it.
abi_of() { tar -tf "$1" | sed -n 's|^\./usr/src/linux-headers-\(.*-amd64\)/$|\1|p' | head -1; }
tarball=$("$top/scripts/deb/debian-root.sh") || { bad "no Debian 12 root"; tally deb; exit 1; }
abi=$(abi_of "$tarball")
# The guest boots the kernel the root has headers for; a cached root the mirror has left
# behind (its kernel no longer there to fetch) is made again.
if ! "$top/scripts/kernel/debian-kernel.sh" "$abi" >/dev/null; then
	tarball=$("$top/scripts/deb/debian-root.sh" --fresh) || { bad "no Debian 12 root"; tally deb; exit 1; }
	abi=$(abi_of "$tarball")
fi
[ -n "$abi" ] && ok "the root has the headers of Debian's kernel $abi" ||
	bad "the root has no linux-headers-*-amd64"
work=$top/build/deb-test
. "$top/scripts/kernel/kernel-lock.sh" # one test-deb per tree: the root and the guest are $work's
root=$work/root
unmount() { umount "$root/proc" 2>/dev/null; }
unmount
rm -rf --one-file-system "$root"
mkdir -p "$root"
# dash runs no EXIT trap when a signal kills it (a CI timeout, a Ctrl-C): exit on them instead.
trap 'unmount; rm -rf --one-file-system "$root"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
tar -x -C "$root" -f "$tarball" || { bad "cannot unpack $tarball"; tally deb; exit 1; }
mount -t proc proc "$root/proc" || { bad "cannot mount /proc in the root"; tally deb; exit 1; }
# in_root CMD...: runs a shell command line in the root, its output in $work/out
in_root() {
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 /bin/sh -c "$*" >"$work/out" 2>&1
}
check() { # NAME COMMAND-LINE: the command line succeeds in the root
	name=$1
	shift
	if in_root "$@"; then ok "$name"; else bad "$name: $(tail -n 5 "$work/out")"; fi
}
watched="/usr /var/lib/dkms /lib/modules/"
# The kernel's module index, as its image package's postinst leaves it (the root has the
# headers only): DKMS runs depmod, and the index is the kernel's, not the packages'.
check "depmod indexes the root's kernel" 'depmod $(ls /lib/modules)'
in_root "find $watched | sort" && cp "$work/out" "$work/before.txt"

mkdir -p "$root/tmp/debs" && cp "$debs"/*.deb "$root/tmp/debs/"
check "apt installs the four packages" "apt-get install -y --no-install-recommends /tmp/debs/*.deb"
# AUTOINSTALL: the postinst built the module for the kernel whose headers are there.
version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
in_root "dkms status copyperf"
grep -qxF "copyperf/$version, $abi, x86_64: installed" "$work/out" &&
	ok "dkms status: the postinst built and installed copyperf/$version for $abi" ||
	bad "dkms status does not show copyperf/$version installed for $abi: $(cat "$work/out")"
ko=$(find "$root/lib/modules/$abi/updates" -name 'copyperf.ko*' 2>/dev/null | head -1)
check "modprobe finds the module DKMS installed" \
	"modprobe --dry-run --show-depends --set-version=$abi copyperf | grep -q 'insmod /lib/modules/$abi/updates/dkms/copyperf.ko'"

# The command, with every result verified.
if in_root "copyperf -t 1M -n 1 -f json -o /tmp/run.json -q"; then
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["results"]
assert len(r) >= 14 and all(x["verified"] is True for x in r), [(x["routine"], x["verified"]) for x in r if not x["verified"]]
print(len(r))' "$root/tmp/run.json" >"$work/count" 2>&1 &&
		ok "copyperf -t 1M -n 1 -f json: $(cat "$work/count") results, every one verified" ||
		bad "copyperf's results: $(tail -n 3 "$work/count")"
else
	bad "copyperf -t 1M -n 1 -f json: $(tail -n 3 "$work/out")"
fi
check "copyperf finds the packaged call mixes" \
	"copyperf --list | grep -qxF '# call mixes (-d): /usr/share/copyperf/distributions'"
check "man copyperf is installed" "test -s /usr/share/man/man1/copyperf.1.gz"
check "the README the manual and the header send readers to is installed" \
	"test -s /usr/share/doc/copyperf/README.md.gz && test -s /usr/share/doc/libcopyperf-dev/README.md.gz"

# A user's program through pkg-config, against libcopyperf.so.0.
cp "$top/tests/install/use_library.c" "$root/tmp/"
check "a program built with pkg-config links libcopyperf.so.0 and runs" \
	'cc -o /tmp/use /tmp/use_library.c $(pkg-config --cflags --libs copyperf) &&
	ldd /tmp/use | grep -q "libcopyperf.so.0 => [/a-z]*/lib/x86_64-linux-gnu/libcopyperf.so.0 " &&
	/tmp/use | grep -q "^libcopyperf 0.1.0,"'
check "a static build with libcopyperf.a runs" \
	'cc -o /tmp/use-static /tmp/use_library.c $(pkg-config --cflags copyperf) \
		/usr/lib/x86_64-linux-gnu/libcopyperf.a && ! ldd /tmp/use-static | grep -q libcopyperf &&
	/tmp/use-static >/dev/null'
# The module's ABI header, from libcopyperf-dev, for a client of /dev/copyperf.
cp "$top/tests/install/use_ioctl_header.c" "$root/tmp/"
check "a client of /dev/copyperf builds against /usr/include/copyperf_ioctl.h" \
	'cc -o /tmp/ioctl-client /tmp/use_ioctl_header.c && /tmp/ioctl-client >/dev/null'

# The preload shim: memcpy, memmove and mempcpy resolve to it, the copies stay the same, and
# COPYPERF_RECORD=FILE writes FILE.memcpy (and FILE.memmove when sort calls memmove), which the
# packaged copyperf finds from FILE and replays.
shim=/usr/lib/x86_64-linux-gnu/copyperf/libcopyperf-preload.so
cp "$top/tests/preload/probe.c" "$root/tmp/"
check "the preload shim replaces memcpy, memmove and mempcpy" \
	"cc -O2 -D_GNU_SOURCE -o /tmp/probe /tmp/probe.c && [ \$(LD_PRELOAD=$shim /tmp/probe --where | grep -c ': $shim\$') = 3 ] &&
	/tmp/probe >/tmp/plain && LD_PRELOAD=$shim /tmp/probe >/tmp/shim && cmp /tmp/plain /tmp/shim"
# The AVX2 and SSE2 shims beside it, which the dynamic loader takes for the shim preloaded by its
# name from that directory where AVX-512, and then AVX2 too, are hidden from it (on a CPU that has
# them), and the first through glibc-hwcaps/x86-64-v4/ where AVX-512 is there.
hwcaps=/usr/lib/x86_64-linux-gnu/copyperf/glibc-hwcaps
check "the AVX2 and SSE2 shims in glibc-hwcaps/x86-64-v3/ and x86-64-v2/, taken for the shim preloaded by its name" \
	"[ -f $hwcaps/x86-64-v3/libcopyperf-preload.so ] && [ -f $hwcaps/x86-64-v2/libcopyperf-preload.so ] &&
	[ \$(readlink -f $hwcaps/x86-64-v4/libcopyperf-preload.so) = $shim ] &&
	hide=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW && where() { env \"\$@\" LD_LIBRARY_PATH=${shim%/*} \
		LD_PRELOAD=libcopyperf-preload.so /tmp/probe --where | awk '\$1 == \"memcpy:\" { print \$2 }'; } &&
	best() { env \"\$@\" /lib64/ld-linux-x86-64.so.2 --help | awk '/ \\(supported/ { print \$1; exit }'; } &&
	[ -n \"\$(best)\" ] && for t in '' \$hide \$hide,-AVX2; do
		b=\$(best GLIBC_TUNABLES=\$t) && case \$b in x86-64-v[234]) [ \$(where GLIBC_TUNABLES=\$t) = $hwcaps/\$b/libcopyperf-preload.so ] || exit 1;; esac
	done"
check "COPYPERF_RECORD: the shim records sort's mix, copyperf replays it verified" \
	"seq 100000 | sed 's/^/line /' >/tmp/lines && COPYPERF_RECORD=/tmp/sort.mix LD_PRELOAD=$shim sort -r /tmp/lines >/dev/null &&
	grep -q '^# calls [1-9]' /tmp/sort.mix.memcpy &&
	copyperf -q -d /tmp/sort.mix -w 64K -n 1 -t 1 -f csv >/tmp/replay.csv && grep -q 'sort.mix.memcpy' /tmp/replay.csv &&
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"verified\") v = i; next }
		\$v != \"true\" { wrong = 1 } END { exit wrong || !v || NR < 2 }' /tmp/replay.csv"

# ---- the module DKMS built, in the guest ---------------------------------------------------
if [ -n "$ko" ] && [ -n "$abi" ]; then
	# The packaged copyperf, run in the guest through the root's dynamic loader and C library.
	files=$("$top/scripts/kernel/dynamic-files.sh" -r "$root" /usr/bin/copyperf)
	# shellcheck disable=SC2086
	"$top/scripts/kernel/x86_64-guest.sh" -k "$abi" -m "$ko" "$work" 120 "$here/guest.sh" \
		$files "$top/tests/tally.sh" "$top/tests/kernel/check.sh"
	status=$?
	sed '/^==== dmesg/,$d' "$work/results.txt" 2>/dev/null
	. "$top/scripts/kernel/judge-guest.sh"
	judge_guest "$status" "the guest's checks passed" "$work/results.txt" "$work/console.log"
else
	bad "no module to boot: DKMS installed no copyperf.ko under /lib/modules/$abi/updates"
fi

# ---- purge -------------------------------------------------------------------------------------
check "apt purges the four packages" "apt-get purge -y $packages"
in_root "dkms status copyperf"
[ ! -s "$work/out" ] && ok "dkms status: no copyperf left" || bad "dkms status after the purge: $(cat "$work/out")"
in_root "find $watched | sort" && cp "$work/out" "$work/after.txt"
left=$(comm -13 "$work/before.txt" "$work/after.txt")
[ -z "$left" ] && ok "the purge left nothing new under $watched" ||
	bad "the purge left behind: $(echo "$left" | head -n 20 | tr '\n' ' ')"
tally deb
