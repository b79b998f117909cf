# Sourced by run.sh (with $cp, $tmp, ok and bad): results files are replaced whole or not at all;
# a run stopped by SIGINT or SIGTERM, or a write that fails, leaves the previous file as it was.
# shellcheck shell=sh

# interrupted SIGNAL STATUS: the issue's case, a run sent SIGNAL one second in, must exit STATUS
# within a second, say on one line how far it got, and leave keep.json as it was and no
# temporary file beside it.  -n 50: the run must not end by itself first.
interrupted() {
	sig=$1 want=$2 dir=$tmp/kept-$1
	mkdir "$dir" && echo previous >"$dir/keep.json"
	"$cp" -t 1G -r memcpy -s 64K -n 50 -o "$dir/keep.json" 2>"$tmp/err" &
	pid=$!
	sleep 1
	t0=$(date +%s%N)
	kill -s "${sig#SIG}" "$pid"
	wait "$pid"
	st=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	if [ "$st" -ne "$want" ]; then bad "$sig: exit $st, expected $want ($(cat "$tmp/err"))"
	elif [ "$ms" -gt 1000 ]; then bad "$sig: took $ms ms to stop"
	elif [ "$(cat "$dir/keep.json")" != previous ]; then bad "$sig: keep.json changed"
	elif [ "$(ls -A "$dir")" != keep.json ]; then bad "$sig: files left: $(ls -A "$dir" | tr '\n' ' ')"
	elif [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
		! grep -Eq "^copyperf: stopped by $sig after [0-9]+ of 51 measurements; nothing written$" "$tmp/err"
	then bad "$sig: stderr: $(cat "$tmp/err")"
	else ok; fi
}
interrupted SIGTERM 143
interrupted SIGINT 130

# A measurement too long to wait for (2^40 bytes): a second SIGTERM ends it at once, and the
# temporary file that was open goes with it.
dir=$tmp/killed
mkdir "$dir" && echo previous >"$dir/keep.json"
"$cp" -q -t 1T -r memcpy -s 64K -n 1 -o "$dir/keep.json" 2>/dev/null &
pid=$!
sleep 1
[ "$(ls -A "$dir" | grep -c '^\.keep\.json\.')" -eq 1 ] && ok || bad "no temporary file while running: $(ls -A "$dir")"
kill -s TERM "$pid"
sleep 0.2
kill -s TERM "$pid"
wait "$pid"
st=$?
[ "$st" -eq 143 ] && [ "$(cat "$dir/keep.json")" = previous ] && [ "$(ls -A "$dir")" = keep.json ] && ok ||
	bad "a second SIGTERM: exit $st, files: $(ls -A "$dir" | tr '\n' ' ')"

# write_error DESCRIPTION ARGS...: exit 1, one line on stderr saying what could not be written.
write_error() {
	desc=$1 want=$2
	shift 2
	"$cp" "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
	if [ "$st" -ne 1 ]; then bad "$desc: exit $st, expected 1"
	elif [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -q -- "$want" "$tmp/err"; then
		bad "$desc: stderr: $(cat "$tmp/err")"
	else ok; fi
}
# -t 4M: every measurement far longer than reading the clock (kvm-clock: 30 ns), so that the
# one line expected is not joined by the note on clock-bound results.
write_error "-o /dev/full" "^copyperf: cannot write '/dev/full': No space left on device$" \
	-q -t 4M -s 64K -o /dev/full
[ -c /dev/full ] && ok || bad "/dev/full is no longer a device"
"$cp" -q -t 4M -s 64K >/dev/full 2>"$tmp/err"
st=$?
[ "$st" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q "^copyperf: cannot write the results: No space left on device$" "$tmp/err" && ok ||
	bad "standard output on /dev/full: exit $st, stderr: $(cat "$tmp/err")"

# A write that fails part way (the file size limit stands in for a full disk): nothing replaced.
dir=$tmp/efbig
mkdir "$dir" && echo previous >"$dir/keep.json"
(trap '' XFSZ; ulimit -f 1; exec "$cp" -q -f json -t 4M -n 1 -o "$dir/keep.json") 2>"$tmp/err"
st=$?
[ "$st" -eq 1 ] && [ "$(cat "$dir/keep.json")" = previous ] && [ "$(ls -A "$dir")" = keep.json ] &&
	[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "cannot write '$dir/keep.json': File too large" "$tmp/err" &&
	ok || bad "a write past the size limit: exit $st, files $(ls -A "$dir"), stderr: $(cat "$tmp/err")"

# Not regular files: written in place, never replaced (the command may run as root).
"$cp" -q -t 64K -s 64K -n 1 -o /dev/null && [ -c /dev/null ] && ok || bad "-o /dev/null replaced the device"
"$cp" -q -t 64K -s 64K -n 1 -f csv -o /dev/stdout | grep -q '^memcpy,user,65536,' && ok ||
	bad "-o /dev/stdout on a pipe"

# A regular file is replaced keeping its mode and (root's run) its owner; through a symbolic
# link, the file it names.
dir=$tmp/replaced
mkdir "$dir" && echo previous >"$dir/keep.json" && chmod 640 "$dir/keep.json"
[ "$(id -u)" != 0 ] || chown 65534:65534 "$dir/keep.json"
owner=$(stat -c %u:%g "$dir/keep.json")
ln -s keep.json "$dir/link.json"
"$cp" -q -f json -t 64K -s 64K -n 1 -o "$dir/link.json" &&
	[ -L "$dir/link.json" ] && [ "$(stat -c %a "$dir/keep.json")" = 640 ] &&
	[ "$(stat -c %u:%g "$dir/keep.json")" = "$owner" ] &&
	python3 -m json.tool "$dir/keep.json" >/dev/null && [ "$(ls -A "$dir" | tr '\n' ' ')" = "keep.json link.json " ] &&
	ok || bad "replacing through a link: $(ls -lA "$dir")"

# A directory that cannot be written: refused before measuring, the file there untouched.
# As root the mode bits do not stop a write, so the check runs as nobody.
as_user() { if [ "$(id -u)" = 0 ]; then setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; else "$@"; fi; }
dir=$tmp/readonly
mkdir "$dir" && echo previous >"$dir/keep.json" && chmod 755 "$tmp" && chmod 555 "$dir"
for opt in --output --plot; do
	as_user "$cp" -q -t 64K -s 64K -n 1 "$opt" "$dir/keep.svg" >"$tmp/out" 2>"$tmp/err"
	st=$?
	[ "$st" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ] &&
		grep -q "cannot write '$dir/keep.svg': Permission denied" "$tmp/err" &&
		[ "$(ls -A "$dir")" = keep.json ] && ok ||
		bad "$opt into a read-only directory: exit $st, stderr: $(cat "$tmp/err")"
done
as_user "$cp" -q -t 64K -s 64K -n 1 -o "$dir/keep.json" 2>"$tmp/err"
st=$?
[ "$st" -eq 2 ] && [ "$(cat "$dir/keep.json")" = previous ] && ok ||
	bad "-o over a file in a read-only directory: exit $st, stderr: $(cat "$tmp/err")"
chmod 700 "$tmp"

# --plot and plot -o replace a previous plot whole, and leave no temporary file.
dir=$tmp/plots
mkdir "$dir" && echo previous >"$dir/p.svg" && echo previous >"$dir/q.svg"
"$cp" -q -f json -t 64K -s 64K,8 -n 1 -r memcpy -o "$dir/r.json" --plot "$dir/p.svg" &&
	"$cp" plot -o "$dir/q.svg" "$dir/r.json" &&
	grep -q '<svg' "$dir/p.svg" && grep -q '<svg' "$dir/q.svg" &&
	[ "$(ls -A "$dir" | tr '\n' ' ')" = "p.svg q.svg r.json " ] && ok ||
	bad "plots: $(ls -A "$dir" | tr '\n' ' ')"
