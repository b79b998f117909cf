#!/bin/sh
# redis.sh REQUESTS: make bench-apps's redis workload.  Starts a redis-server of its own on
# 127.0.0.1 at a free port, without persistence, runs redis-benchmark's SET and GET with
# REQUESTS requests each at values of 64, 1024 and 4096 bytes, and stops the server, always.
# The client pipelines 16 requests a round trip, as a busy client does: one at a time, the
# loopback's system calls would take nearly all the time, and the server's and the client's
# own work on the commands (parsing them, copying the values into and out of their buffers)
# would hardly show.
#
# The benchmark's own output is timings, which differ from run to run: it goes to /dev/null,
# and the script prints what the run leaves in the server (its key count and the last value's
# length), the same on every run.  Under `copyperf program` the shim reaches the server and the
# client alike, through LD_PRELOAD, which they inherit.
#
# Placement: the server and the client answer each other round trip by round trip.  On one
# CPU each round trip would wait for the other process's time slice, and the run would time the
# scheduler; left free, they would move between CPUs from run to run.  With two CPUs or more
# each gets one of its own (the server CPU 1, the client CPU 0), the same in every run and on
# both sides.
set -u
requests=${1:-}
case $requests in
'' | *[!0-9]* | 0*)
	echo "redis.sh: '$requests': the request count must be a whole number from 1" >&2
	exit 2
	;;
esac
for tool in redis-server redis-benchmark redis-cli /usr/bin/python3; do
	command -v "$tool" >/dev/null ||
		{ echo "redis.sh: $tool: not found (scripts/bench-apps/install.sh installs it)" >&2; exit 1; }
done

dir=$(mktemp -d "${TMPDIR:-/tmp}/copyperf-redis.XXXXXX") || exit 1
pid=
client=
stop_server() {
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		pid=
	fi
}
stop_client() {
	if [ -n "$client" ]; then
		kill "$client" 2>/dev/null
		wait "$client" 2>/dev/null
		client=
	fi
}
trap 'stop_client; stop_server; rm -rf "$dir"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

if [ "$(nproc)" -ge 2 ]; then
	server_cpu="taskset -c 1"
	client_cpu="taskset -c 0"
else
	server_cpu=
	client_cpu=
fi

fail() {
	echo "redis.sh: $*" >&2
	[ -s "$dir/log" ] && tail -n 3 "$dir/log" >&2
	exit 1
}

# A port the kernel has just found free; another program may take it before the server binds
# it, so a server that does not come up is started again on another.
free_port() {
	/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

up=
for _ in 1 2 3 4 5; do
	port=$(free_port) || fail "no free port on 127.0.0.1"
	# --pdeathsig: the server ends with this script, however the script ends (even by SIGKILL,
	# where no trap runs).
	# shellcheck disable=SC2086
	$server_cpu setpriv --pdeathsig TERM -- redis-server --bind 127.0.0.1 --port "$port" \
		--save '' --appendonly no --dir "$dir" --logfile "$dir/log" --daemonize no \
		>/dev/null 2>&1 &
	pid=$!
	i=0
	while [ $i -lt 100 ] && kill -0 "$pid" 2>/dev/null; do
		if [ "$(redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null)" = PONG ]; then
			up=1
			break
		fi
		sleep 0.1
		i=$((i + 1))
	done
	[ -n "$up" ] && break
	stop_server
done
[ -n "$up" ] || fail "redis-server did not start on 127.0.0.1"

# The client runs in the background and the script waits for it, so that a signal is acted on
# at once: the shell would run its trap only once a command in the foreground had ended.
for size in 64 1024 4096; do
	# shellcheck disable=SC2086
	$client_cpu redis-benchmark -h 127.0.0.1 -p "$port" -n "$requests" -d "$size" -t set,get -P 16 -q \
		>/dev/null 2>&1 &
	client=$!
	wait "$client" || fail "redis-benchmark failed at -d $size"
	client=
done

keys=$(redis-cli -h 127.0.0.1 -p "$port" dbsize) || fail "redis-cli dbsize failed"
length=$(redis-cli -h 127.0.0.1 -p "$port" strlen key:__rand_int__) || fail "redis-cli strlen failed"
echo "keys: $keys"
echo "last value: $length bytes"
redis-cli -h 127.0.0.1 -p "$port" shutdown nosave >/dev/null 2>&1
wait "$pid" 2>/dev/null
pid=
