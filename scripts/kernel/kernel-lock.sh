# Sourced: waits until no other guest uses $work, and keeps it until the caller exits
# (another `make test` in the same tree, say).  Holds file descriptor 9.
mkdir -p "$work"
exec 9>"$work/.lock"
flock 9
