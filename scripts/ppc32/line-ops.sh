#!/bin/sh
# Per 32-byte line, what a 32-bit PowerPC copy's main loop does: word loads and
# stores, dcbz, dcbt, read from the disassembly of its innermost counted loop
# (the backward bdnz with the most loads), and the cache-line fills that implies
# on a write-allocate data cache such as the e300's: one for the source, and one
# for the destination unless dcbz allocated it.
#   line-ops.sh OBJECT FUNCTION...      e.g. line-ops.sh vmlinux memcpy __copy_tofrom_user
set -eu
[ $# -ge 2 ] || { echo "usage: line-ops.sh OBJECT FUNCTION..." >&2; exit 2; }
obj=$1
shift
printf '| %-20s | %5s | %6s | %4s | %4s | %10s |\n' routine loads stores dcbz dcbt "line fills"
printf '| %-20s | %5s | %6s | %4s | %4s | %10s |\n' --- ---: ---: ---: ---: ---:
for fn in "$@"; do
	powerpc-linux-gnu-objdump -d --disassemble="$fn" "$obj" | awk -v fn="$fn" '
	function hex(s,  v, i) {
		v = 0
		for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	/^ *[0-9a-f]+:\t/ {
		split($0, f, "\t")
		split(f[3], w, " ")
		n++; a[n] = hex(substr($1, 1, length($1) - 1)); m[n] = w[1]
		if (w[1] == "bdnz" && hex(w[2]) < a[n]) { loops++; lo[loops] = hex(w[2]); hi[loops] = a[n] }
	}
	END {
		best = 0
		for (l = 1; l <= loops; l++) {
			ld = st = z = t = 0
			for (i = 1; i <= n; i++) {
				if (a[i] < lo[l] || a[i] > hi[l]) continue
				if (m[i] ~ /^lwzu?$/) ld++
				if (m[i] ~ /^stwu?$/) st++
				if (m[i] == "dcbz") z++
				if (m[i] ~ /^dcbt/) t++
			}
			if (ld > best) { best = ld; L = ld; S = st; Z = z; T = t }
		}
		if (best == 0) { printf "line-ops.sh: no word-copy loop in %s\n", fn > "/dev/stderr"; exit 1 }
		k = 32 / (4 * L) # loop iterations per 32-byte line
		printf "| %-20s | %5g | %6g | %4g | %4g | %10g |\n", fn, L * k, S * k, Z * k, T * k, (Z * k >= 1 ? 1 : 2)
	}'
done
