# Sourced by the guest scripts after tally.sh:
#   check NAME COMMAND...   the command must succeed; its output is left in /tmp/out
# shellcheck shell=sh
check() {
	name=$1
	shift
	if "$@" >/tmp/out 2>&1; then ok "$name"; else bad "$name: $(tail -n 3 /tmp/out)"; fi
}
