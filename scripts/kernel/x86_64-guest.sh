#!/bin/sh
# Boots Debian's packaged amd64 kernel in QEMU with the module built against
# it, busybox, and the given files under /guest, and runs RUN there as /guest/run.
#   x86_64-guest.sh [-k ABI -m MODULE.ko | -t TREE [-B VAR=VALUE]] [-s CPUS] [-n NODES] WORKDIR TIME_LIMIT RUN \
#                   [FILE[:NAME]...] [-- EXTRA KERNEL ARGS]
# -k -m: boot the kernel ABI (6.1.0-NN-amd64) with a module already built for it (by DKMS,
# say) instead of building kmod/ against this machine's headers.
# -t: boot a kernel tree built by kernel-tree.sh, with kmod/ built against it; -B adds a make
# variable to that build (COPYPERF_SELFTEST_KASAN=y, say).
# -s: the guest's CPUs (default 1).
# -n: NUMA nodes (default 1), each with an equal share of the CPUs and of the memory.
# Leaves WORKDIR/console.log and WORKDIR/results.txt (the results device, see
# guest-init.sh); exits as boot-qemu.sh does (124: the guest hung).  One guest per
# WORKDIR at a time: the caller holds the lock (kernel-lock.sh) while it reads the logs too.
set -eu
usage="usage: x86_64-guest.sh [-k ABI -m MODULE.ko | -t TREE [-B VAR=VALUE]] [-s CPUS] [-n NODES] WORKDIR"
usage="$usage TIME_LIMIT RUN [FILE...] [-- ARGS]"
abi= ko= tree= cpus=1 nodes=1 memory=512 build_var=
while getopts k:m:t:s:n:B: opt; do
	case $opt in
	B) build_var=$OPTARG ;;
	k) abi=$OPTARG ;;
	m) ko=$OPTARG ;;
	t) tree=$OPTARG ;;
	s) cpus=$OPTARG ;;
	n) nodes=$OPTARG ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
# -k and -m go together.
[ $# -ge 3 ] && [ "${abi:+k}${ko:+m}" != k ] && [ "${abi:+k}${ko:+m}" != m ] || { echo "$usage" >&2; exit 2; }
[ "$nodes" -ge 1 ] 2>/dev/null && [ $((cpus % nodes)) -eq 0 ] && [ $((memory % nodes)) -eq 0 ] ||
	{ echo "x86_64-guest.sh: -n $nodes: must divide the $cpus CPUs and the $memory MiB" >&2; exit 2; }
numa=
if [ "$nodes" -gt 1 ]; then
	# A socket per node: CPUs that share a socket (and its LLC) across nodes make the
	# kernel warn that the topology is not sane.
	numa=",sockets=$nodes"
	per=$((cpus / nodes))
	for k in $(seq 0 $((nodes - 1))); do
		numa="$numa -object memory-backend-ram,id=mem$k,size=$((memory / nodes))M"
		numa="$numa -numa node,nodeid=$k,cpus=$((k * per))-$((k * per + per - 1)),memdev=mem$k"
	done
fi
here=$(cd "$(dirname "$0")" && pwd)
work=$1 limit=$2 run=$3
shift 3
files=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	files="$files $1"
	shift
done
[ $# -gt 0 ] && shift
mkdir -p "$work"
rm -f "$work/console.log" "$work/results.log" "$work/results.txt"

if [ -n "$tree" ]; then
	VMLINUZ=$tree/arch/x86/boot/bzImage
	echo "kernel: $VMLINUZ, headers: $tree" >&2
	# shellcheck disable=SC2086 # no -B: no word
	ko=$("$here/build-module.sh" "$tree" "$work/kmod-$(basename "$tree")" COPYPERF_SELFTEST=y $build_var)
elif [ -n "$abi" ]; then
	kernel=$("$here/debian-kernel.sh" "$abi")
	eval "$kernel"
	echo "kernel: $VMLINUZ, module: $ko" >&2
else
	kernel=$("$here/debian-kernel.sh")
	eval "$kernel"
	echo "kernel: $VMLINUZ, headers: $KDIR" >&2
	# With the self-test routines: a test must be able to see the verification fail.
	ko=$("$here/build-module.sh" "$KDIR" "$work/kmod-$(basename "$KDIR")" COPYPERF_SELFTEST=y)
fi
# shellcheck disable=SC2086
"$here/make-initramfs.sh" "$work/initramfs.cpio.gz" "$(command -v busybox)" \
	"$here/guest-init.sh" "$ko" $files "$run:run"

# QEMU's KVM fallback does not trigger when a paravirtual KVM starts and then hangs:
# KVM only where the CPU really has it.
if grep -qwE 'vmx|svm' /proc/cpuinfo && [ -w /dev/kvm ]; then
	accel="-accel kvm -cpu host"
else
	accel="-accel tcg -cpu max"
fi
set +e
"$here/boot-qemu.sh" -q "qemu-system-x86_64 $accel -m $memory -smp $cpus$numa -nodefaults" \
	-k "$VMLINUZ" -i "$work/initramfs.cpio.gz" -c ttyS0 -r ttyS1 -d "$work" -t "$limit" \
	-a "$*"
status=$?
# A serial line ends in \r\n.
tr -d '\r' <"$work/results.log" >"$work/results.txt"
exit $status
