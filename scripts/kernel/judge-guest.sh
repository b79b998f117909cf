# Sourced after tests/tally.sh, with $top the tree's top: the checks every kernel test
# makes once its QEMU guest is gone.
#   judge_guest STATUS NAME OUTPUT CONSOLE
# STATUS is boot-qemu.sh's exit; OUTPUT holds the guest's "copyperf-guest-status N" line,
# judged as the check NAME, then "==== dmesg" and the guest's kernel log; CONSOLE is the
# serial console (the same file where the guest has only the one port).
judge_guest() {
	if [ "$1" = 0 ]; then ok "the guest powered off"; else bad "the guest: exit $1"; fi
	if grep -q '^copyperf-guest-status 0$' "$3"; then
		ok "$2"
	else
		bad "$2: $(grep '^copyperf-guest-status' "$3" || echo 'no status')"
	fi
	grep -q '^==== dmesg' "$3" && ok "the guest's kernel log was read" ||
		bad "the guest's kernel log never arrived"
	# The console has what was printed before a crash; the guest's dmesg the lower levels.
	problems=$( { cat "$4"; sed -n '/^==== dmesg/,$p' "$3"; } | "$top/scripts/kernel/log-problems.sh")
	if [ -z "$problems" ]; then
		ok "the kernel log has no BUG, WARNING, Oops, soft lockup or stuck interrupt"
	else
		bad "the kernel log:"
		echo "$problems"
	fi
	if [ "$failed" != 0 ]; then
		echo "---- the console ($4), last lines:"
		tail -n 30 "$4"
	fi
}
