#!/bin/sh
# Packs a gzip'd cpio initramfs: busybox, an /init, and the given files under /guest.
#   make-initramfs.sh OUT BUSYBOX INIT FILE[:NAME]...
# BUSYBOX: a static busybox for the guest's architecture, or - for none (an INIT
# that is a static program needs no shell); INIT: the /init script
# (guest-init.sh runs /guest/run); each FILE lands as /guest/NAME (default: its
# base name), executable files staying executable.
set -eu
[ $# -ge 3 ] || { echo "usage: make-initramfs.sh OUT BUSYBOX INIT FILE[:NAME]..." >&2; exit 2; }
out=$1 busybox=$2 init=$3
shift 3
for need in cpio gzip; do
	command -v $need >/dev/null || { echo "make-initramfs.sh: $need is missing" >&2; exit 1; }
done
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
trap 'exit 130' INT # dash runs no EXIT trap when a signal kills it
trap 'exit 143' TERM
chmod 755 "$root" # mktemp's 0700 would become the guest's / and lock out every other user
mkdir -p "$root/bin" "$root/dev" "$root/proc" "$root/sys" "$root/tmp" "$root/guest"
cp "$init" "$root/init"
chmod 755 "$root/init"
if [ "$busybox" != - ]; then
	cp "$busybox" "$root/bin/busybox"
	chmod 755 "$root/bin/busybox"
fi
for spec in "$@"; do
	file=${spec%%:*}
	name=${spec#*:}
	[ "$name" != "$spec" ] || name=$(basename "$file")
	[ -f "$file" ] || { echo "make-initramfs.sh: no file '$file'" >&2; exit 1; }
	cp -p "$file" "$root/guest/$name"
done
mkdir -p "$(dirname "$out")"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --owner=0:0 --quiet) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
