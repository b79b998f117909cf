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
	echo "copyperf tests need Debian packages that are missing; run:" >&2
	echo "  sudo apt-get install -y --no-install-recommends$missing" >&2
	exit 1
fi
echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# Update the lists only when a package is unknown to them (a fresh machine has none).
for p in $missing; do
	if ! apt-cache show "$p" >/dev/null 2>&1; then
		apt-get update -q >/dev/null
		break
	fi
done
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null
