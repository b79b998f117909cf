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
	if ! grep -q '^==== dmesg' "$3" && [ ! -s "$4" ]; then
		bad "no kernel log to look for problems in (neither the guest's nor its console)"
	elif [ -z "$problems" ]; then
		ok "the kernel log has no BUG, WARNING, Oops, sanitizer or leak report, soft lockup or stuck interrupt"
	else
		bad "the kernel log:"
		echo "$problems"
		# The first report whole: the sanitizers' say where and what, past the first line.
		log=$(mktemp)
		sed -n '/^==== dmesg/,$p' "$3" >"$log"
		[ -n "$("$top/scripts/kernel/log-problems.sh" -n "$log")" ] || cp "$4" "$log"
		first=$("$top/scripts/kernel/log-problems.sh" -n "$log")
		echo "---- the first report in the kernel log:"
		sed -n "$((${first:-1} > 5 ? ${first:-1} - 5 : 1)),+60p" "$log"
		rm -f "$log"
	fi
	if [ "$failed" != 0 ]; then
		echo "---- the console ($4), last lines:"
		tail -n 30 "$4"
	fi
}
