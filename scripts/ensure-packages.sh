#!/bin/sh
# Installs the Debian packages named on the command line that are missing.
# As root: apt-get (after one update); otherwise prints the command to run and fails.
set -eu
missing=""
for p in "$@"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "copyperf needs Debian packages that are missing; run:" >&2
	echo "  sudo apt-get install -y --no-install-recommends$missing" >&2
	exit 1
fi
echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# A fresh image's package lists may be missing or stale (an install would then ask the mirror
# for versions it no longer has): update them unless that was done within the hour.
if ! find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -mmin -60 2>/dev/null | grep -q .; then
	apt-get update -q >/dev/null
fi
# An install cut short (a CI timeout) leaves dpkg asking for this before any other; and another
# run's apt may hold the lock for a while: wait for it rather than fail.
dpkg --configure -a
# shellcheck disable=SC2086
apt-get install -y -q -o DPkg::Lock::Timeout=600 --no-install-recommends $missing >/dev/null
