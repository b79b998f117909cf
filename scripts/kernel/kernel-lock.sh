# Sourced: waits until no other guest uses $work, and keeps it until the caller exits
# (another `make test` in the same tree, say).  Holds file descriptor 9.  A script
# started under the lock (a test's guest script) sources this too and goes straight on:
# the holder exports COPYPERF_LOCKED_WORK, and a second flock of its own would wait forever.
if [ "${COPYPERF_LOCKED_WORK:-}" != "$work" ]; then
	mkdir -p "$work"
	exec 9>"$work/.lock"
	flock 9
	COPYPERF_LOCKED_WORK=$work
	export COPYPERF_LOCKED_WORK
fi
