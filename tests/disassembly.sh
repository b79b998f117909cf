# Sourced by the test scripts that read the machine code they built:
#   function_body OBJDUMP FILE SYMBOL  the disassembly of one function
#   conditional_jumps FILE SYMBOL      how many conditional jumps an x86-64 function holds
#                                      (every j* mnemonic but jmp), by the host's objdump
# shellcheck shell=sh
function_body() {
	"$1" -d "$2" | awk -v sym="<$3>:" '$2 == sym { on = 1; next } on && /^$/ { exit } on'
}
conditional_jumps() {
	function_body objdump "$1" "$2" | awk -F'\t' '$3 ~ /^j[a-z]+ / && $3 !~ /^jmp/ { n++ } END { print n + 0 }'
}
