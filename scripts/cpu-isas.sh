#!/bin/sh
# usage: cpu-isas.sh ARCH_DIR
# The library's variants (COPYPERF_ISA names) that this CPU runs, from the kernel's flags in
# /proc/cpuinfo: a view apart from the library's own CPUID reading, which tests check it against.
# For a cross build (ARCH_DIR not this machine's) only the portable one.
set -u
isas=generic
if [ "${1:-}" = x86_64 ] && [ "$(uname -m)" = x86_64 ]; then
	flags=$(grep -m1 '^flags' /proc/cpuinfo)
	has() { case " ${flags#*:} " in *" $1 "*) return 0 ;; *) return 1 ;; esac }
	isas="$isas sse2"
	if has avx2; then isas="$isas avx2"; fi
	if has avx512f && has avx512bw && has avx512vl; then isas="$isas avx512 avx512-branchless"; fi
fi
echo "$isas"
