#!/bin/bash
# copyperf on the boards it targets, under qemu-user: each cross target builds from scratch
# without a warning (the library with clang too), installs, and runs the library's
# correctness program and a verified copyperf sweep on the CPUs that matter.  On PowerPC
# the cache-line path is shown in the objects (dcbz, dcbt) and counted while it runs.
# usage: run.sh TARGET...   (powerpc-linux-gnu aarch64-linux-gnu powerpc64le-linux-gnu ...)
set -u
make=${MAKE:-make}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
results=$tmp/results
: >"$results"
: >"$tmp/runs"
jobs=${JOBS:-$(nproc)}
# The builds here run -j$jobs each: a parent make's -j and jobserver (make -j2 test-cross)
# would only make them warn that it is reset, which the warning check below takes for the
# compiler's. Its other flags and variables stay.
MAKEFLAGS=$(printf '%s' "${MAKEFLAGS:-}" | sed 's/--jobserver-[a-z]*=[^ ]*//g; s/\(^\| \)-j[0-9]*//g')
export MAKEFLAGS
unset MFLAGS

# One line per check, appended (whole lines: safe from the parallel runs below).
ok() { echo ok >>"$results"; }
bad() { echo "FAIL: $*" | tee -a "$results"; }

# The qemu-user CPUs each target runs on ("-": QEMU's default), its ELF machine, and the
# cache mode of its sweep (RISC-V has no cache flush a program may use).
setup() {
	cache=flush
	case $1 in
	powerpc-linux-gnu) qemu=ppc cpus="e300c3 e500mc" machine=PowerPC libdir=powerpc ;;
	powerpc64le-linux-gnu) qemu=ppc64le cpus="-" machine=PowerPC64 libdir=powerpc64 ;;
	aarch64-linux-gnu) qemu=aarch64 cpus="- cortex-a53" machine=AArch64 libdir=aarch64 ;;
	riscv64-linux-gnu) qemu=riscv64 cpus="-" machine=RISC-V libdir=generic cache=hot ;;
	*) echo "run.sh: unknown target '$1'" >&2; exit 2 ;;
	esac
}

# last_line_passes FILE: the program's summary says it all passed.
last_line_passes() {
	tail -n 1 "$1" | grep -Eq '^[0-9]+ passed, 0 failed$'
}

. "$(dirname "$0")/../disassembly.sh"

# run_on TARGET CPU: the correctness program and a verified sweep under qemu-user.
run_on() {
	t=$1 cpu=$2
	b=build/$t
	setup "$t"
	out=$tmp/run-$t-$cpu
	mkdir -p "$out"
	q="qemu-$qemu-static"
	[ "$cpu" = - ] || q="$q -cpu $cpu"
	where="$t, -cpu $cpu"
	[ "$cpu" = - ] && where="$t, default CPU"

	if $q "$b/tests/libcheck" >"$out/libcheck" 2>&1 && last_line_passes "$out/libcheck"; then
		ok
		echo "ok: libcheck, $where: $(tail -n 1 "$out/libcheck")"
	else
		bad "libcheck, $where: $(tail -n 3 "$out/libcheck")"
	fi

	routines=$($q "$b/copyperf" --list | grep -vc '^#')
	if $q "$b/copyperf" -t 1M -n 1 -c "$cache" -q -f csv >"$out/sweep.csv" 2>"$out/sweep.err"; then
		rows=$(awk -F, 'NR > 1' "$out/sweep.csv" | wc -l)
		verified=$(awk -F, 'NR > 1 && $12 == "true"' "$out/sweep.csv" | wc -l)
		if [ "$rows" -eq $((routines * 14)) ] && [ "$verified" -eq "$rows" ]; then
			ok
			echo "ok: copyperf -t 1M -n 1 -c $cache, $where: $verified rows verified"
		else
			bad "copyperf, $where: $verified of $rows rows verified, expected $((routines * 14))"
		fi
	else
		bad "copyperf, $where: exit status $?: $(head -n 3 "$out/sweep.err")"
	fi

	# Where a program cannot flush the cache, asking for it is a usage error, not a wrong number.
	if [ "$cache" = hot ]; then
		$q "$b/copyperf" -t 1M -n 1 -c flush -q >"$out/flush.out" 2>"$out/flush.err"
		st=$?
		if [ "$st" -eq 2 ] && [ ! -s "$out/flush.out" ] &&
			grep -q -- '--cache flush: flushing the cache is not supported on this architecture' "$out/flush.err"; then
			ok
			echo "ok: -c flush refused, $where"
		else
			bad "-c flush on $where: exit $st, $(cat "$out/flush.err")"
		fi
		# ... but -c cold is: it pushes the buffers out by reading memory of its own.
		if $q "$b/copyperf" -s 64K -t 1M -n 1 -c cold -q -f csv >"$out/cold.csv" 2>"$out/cold.err" &&
			[ "$(awk -F, 'NR > 1 && $12 == "true"' "$out/cold.csv" | wc -l)" -eq "$routines" ]; then
			ok
			echo "ok: -c cold without a cache flush, $where: $routines rows verified"
		else
			bad "-c cold on $where: $(head -n 3 "$out/cold.err") $(head -n 3 "$out/cold.csv")"
		fi
	fi

	if [ "$libdir" = powerpc ] || [ "$libdir" = powerpc64 ]; then
		if $q "$b/count/tests/line_count" >"$out/count" 2>&1 && last_line_passes "$out/count"; then
			ok
			echo "ok: line-path counts, $where: $(sed -n 2p "$out/count")"
		else
			bad "line-path counts, $where: $(tail -n 5 "$out/count")"
		fi
	fi
}

for t in "$@"; do
	setup "$t"
	b=build/$t
	echo "== $t"
	# -B: a build that compiles nothing would hide its warnings.
	if $make --no-print-directory -B -j"$jobs" CROSS_COMPILE="$t-" all "$b/tests/libcheck" \
		>"$tmp/build" 2>&1; then
		if grep -q 'warning:' "$tmp/build"; then
			bad "$t: the build warns: $(grep 'warning:' "$tmp/build" | head -n 3)"
		else
			ok
		fi
	else
		bad "$t: the build failed: $(tail -n 5 "$tmp/build")"
		continue
	fi

	# The library with clang as well: both compilers must find nothing to say.
	if $make --no-print-directory -B -j"$jobs" CC="clang --target=$t" CROSS_COMPILE="$t-" \
		BUILD="$b/clang" EXTRA_CFLAGS=-Werror "$b/clang/libcopyperf.a" >"$tmp/clang" 2>&1; then
		ok
	else
		bad "$t: clang -Werror: $(grep -m 3 -E 'error|warning' "$tmp/clang")"
	fi

	dest=$tmp/install-$t
	if $make --no-print-directory CROSS_COMPILE="$t-" install DESTDIR="$dest" PREFIX=/usr \
		>"$tmp/install" 2>&1; then
		missing=
		for f in bin/copyperf lib/libcopyperf.a lib/libcopyperf.so include/copyperf.h \
			lib/pkgconfig/copyperf.pc; do
			[ -f "$dest/usr/$f" ] || missing="$missing $f"
		done
		elf=$("$t-readelf" -h "$dest/usr/bin/copyperf" | sed -n 's/^ *Machine: *//p')
		if [ -n "$missing" ]; then
			bad "$t: make install left out$missing"
		elif ! echo "$elf" | grep -q "$machine"; then
			bad "$t: the installed copyperf is for '$elf', not $machine"
		elif "$t-readelf" -l "$dest/usr/bin/copyperf" | grep -q INTERP; then
			bad "$t: the installed copyperf is not static"
		else
			ok
		fi
	else
		bad "$t: make install failed: $(tail -n 3 "$tmp/install")"
	fi

	if [ "$libdir" = powerpc ] || [ "$libdir" = powerpc64 ]; then
		# The copy routine holds the line path, and copyperf_memcpy goes to it
		# (on ppc64 through its local entry point: <copyperf_ppc_line_copy+0x8>).
		body=$(function_body "$t-objdump" "$b/lib/$libdir/line_copy.o" copyperf_ppc_line_copy)
		if echo "$body" | grep -qw dcbz && echo "$body" | grep -q 'dcbt'; then
			ok
		else
			bad "$t: copyperf_ppc_line_copy has no dcbz or no dcbt"
		fi
		if function_body "$t-objdump" "$b/copyperf" copyperf_memcpy |
			grep -Eq '<copyperf_ppc_line_copy(\+0x8)?>'; then
			ok
		else
			bad "$t: copyperf_memcpy in the static copyperf does not reach copyperf_ppc_line_copy"
		fi
		if ! $make --no-print-directory -j"$jobs" CROSS_COMPILE="$t-" BUILD="$b/count" \
			EXTRA_CFLAGS=-DCOPYPERF_COUNT_LINES "$b/count/tests/line_count" \
			>"$tmp/count-build" 2>&1; then
			bad "$t: the counting build failed: $(tail -n 3 "$tmp/count-build")"
		fi
	fi

	for cpu in $cpus; do
		echo "$t $cpu" >>"$tmp/runs"
	done
done

# The qemu-user runs take minutes each: $jobs at a time, the next as soon as one ends.
while read -r t cpu; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
	run_on "$t" "$cpu" &
done <"$tmp/runs"
wait

passed=$(grep -c '^ok$' "$results")
failed=$(grep -c '^FAIL' "$results")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
