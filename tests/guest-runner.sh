# Sourced first by the runners of a QEMU guest (tests/kernel, tests/kernel-debug, tests/numa),
# with $guest_work the name of their work directory under build/: sets $here (the runner's
# directory), $top (the tree) and $work, waits for $work (kernel-lock.sh) and brings the
# checks' tally (tests/tally.sh) and the guest's judge (judge-guest.sh).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
work=$top/build/$guest_work
. "$top/tests/tally.sh"
. "$top/scripts/kernel/kernel-lock.sh"
. "$top/scripts/kernel/judge-guest.sh"
