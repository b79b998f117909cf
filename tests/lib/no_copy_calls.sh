#!/bin/sh
# SPDX-License-Identifier: MIT
# The library's own code calls no copy through the PLT: in the preload shim
# memcpy, memmove and mempcpy are the shim's, so a call there from the
# library (a struct assignment or a string a compiler made into memcpy) would
# be recorded among the program's calls, or run the copy it is computing
# the thresholds for. Each shared object given is disassembled and every call
# or jump to one of them through its PLT named.
# Usage: no_copy_calls.sh SO...
set -eu
command -v objdump >/dev/null || { echo "no_copy_calls.sh: objdump not found (Debian package binutils)" >&2; exit 1; }
status=0
for so in "$@"; do
	calls=$(objdump -d --no-show-raw-insn "$so" | awk '
		/>:$/ { fn = $2 }
		/(call|jmp)[a-z]* +[0-9a-f]+ <(__)?(memcpy|memmove|mempcpy)(_chk)?@plt>/ { print fn, $NF }')
	if [ -n "$calls" ]; then
		echo "no_copy_calls.sh: $so calls a copy through its PLT:" >&2
		printf '%s\n' "$calls" | sed 's/^/  /' >&2
		status=1
	else
		echo "no_copy_calls.sh: $so: no copy called through its PLT"
	fi
done
exit $status
