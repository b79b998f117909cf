#!/bin/sh
# test-abi: libcopyperf.so exports exactly the functions include/copyperf.h declares, all in
# the version node of lib/libcopyperf.map, under the SONAME libcopyperf.so.<major>; so a new
# export is a line added to the header and the map, never an internal function let out.
# The static archive hides nothing from a program linked with it, so every name it defines
# carries the library's prefix: an internal helper called env_warn or x86_features would
# clash with a program's own.
# Usage: run.sh LIBRARY(the real file) HEADER MAP SONAME ARCHIVE
set -u
so=$1 header=$2 map=$3 soname=$4 archive=$5
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../tally.sh"

# Every prototype's name: an identifier followed by '(' at the start of a declaration (a
# function pointer's name is followed by ')', a struct member's is indented).
sed -n 's/^[a-z][^(]*[ *]\(copyperf_[a-z0-9_]*\)(.*/\1/p' "$header" | sort >"$tmp/header"
# The map's global names, up to "local:".
sed -n '/^global:/,/^local:/s/^[[:space:]]*\([a-z_][a-z0-9_]*\);.*/\1/p' "$map" | sort >"$tmp/map"
node=$(sed -n 's/^\([A-Z0-9_]*\) *{.*/\1/p' "$map")
# What the dynamic linker sees: defined functions (T) and IFUNCs (i), with their versions.
nm -D --defined-only "$so" >"$tmp/nm" || { bad "nm -D $so failed"; tally abi; exit 1; }
awk '$2 != "A" { print $3 }' "$tmp/nm" | sort >"$tmp/exported"

[ "$(wc -l <"$tmp/header")" -ge 9 ] && ok "the header declares $(wc -l <"$tmp/header") functions" ||
	bad "found only $(wc -l <"$tmp/header") functions in $header: the parser no longer reads it"
cmp -s "$tmp/header" "$tmp/map" && ok "$map exports the header's functions" ||
	bad "$map and $header differ (< header, > map): $(diff "$tmp/header" "$tmp/map" | grep '^[<>]' | tr '\n' ' ')"
sed "s/\$/@@$node/" "$tmp/header" >"$tmp/want"
cmp -s "$tmp/want" "$tmp/exported" && ok "the library exports those, each as name@@$node, and nothing else" ||
	bad "$so exports other symbols than the header's (< header, > library): $(diff "$tmp/want" "$tmp/exported" | grep '^[<>]' | tr '\n' ' ')"
# Nothing else: no data, no internal function, no stray version node.
[ "$(awk '$2 == "A" { print $3 }' "$tmp/nm")" = "$node" ] && ok "one version node, $node" ||
	bad "version nodes: $(awk '$2 == "A" { print $3 }' "$tmp/nm" | tr '\n' ' ')"
got=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$got" = "$soname" ] && ok "SONAME $soname" || bad "SONAME is '$got', not $soname"

# A program linked against it binds copyperf_memcpy to the versioned symbol and runs.
cat >"$tmp/use.c" <<'C'
#include <copyperf.h>
#include <string.h>
int main(void)
{
	char a[100] = "versioned", b[100];
	return copyperf_memcpy(b, a, sizeof a) != b || strcmp(a, b) != 0;
}
C
dir=$(dirname "$so")
if ${CC:-cc} -I"$(dirname "$header")" -o "$tmp/use" "$tmp/use.c" -L"$dir" -lcopyperf 2>"$tmp/err" &&
	LD_LIBRARY_PATH=$dir "$tmp/use"; then
	nm -D "$tmp/use" | grep -q "copyperf_memcpy@$node" && readelf -d "$tmp/use" | grep -q "NEEDED.*\[$soname\]" &&
		ok "a program needs $soname and binds copyperf_memcpy@$node" ||
		bad "a program linked with -lcopyperf does not bind copyperf_memcpy@$node from $soname"
else
	bad "a program linked with -lcopyperf: $(cat "$tmp/err")"
fi
# The static archive: every global name it defines starts with copyperf_, and a program that
# defines the old internal names (and common ones) for itself links with it and runs.
nm -g --defined-only "$archive" >"$tmp/nm-a" 2>"$tmp/err" || { bad "nm $archive: $(cat "$tmp/err")"; tally abi; exit 1; }
awk 'NF == 3 { print $3 }' "$tmp/nm-a" | sort -u >"$tmp/defined"
[ "$(wc -l <"$tmp/defined")" -ge 20 ] && ok "$archive defines $(wc -l <"$tmp/defined") global names" ||
	bad "$archive defines only $(wc -l <"$tmp/defined") global names: nm's output is no longer read"
stray=$(grep -v '^copyperf_' "$tmp/defined" | tr '\n' ' ')
[ -z "$stray" ] && ok "every global name in $archive starts with copyperf_" ||
	bad "$archive defines names without the copyperf_ prefix, which clash with a program's own: $stray"
cat >"$tmp/own.c" <<'C'
#include <copyperf.h>
#include <string.h>
/* Names a program may well have; the library's internals once had some of them. */
int env_warn, x86_features, x86_tuning, text_put, cache_read, parse_size;
int main(void)
{
	char a[300] = "statically linked", b[300];
	return copyperf_memcpy(b, a, sizeof a) != b || strcmp(a, b) != 0 || env_warn + x86_features;
}
C
if ${CC:-cc} -static -I"$(dirname "$header")" -o "$tmp/own" "$tmp/own.c" "$archive" 2>"$tmp/err" &&
	"$tmp/own"; then
	ok "a static program with its own env_warn, x86_features and x86_tuning links with $archive and runs"
else
	bad "a static program with names of its own and $archive: $(head -n 3 "$tmp/err")"
fi
# The header alone compiles in every language it says it serves: C89 to C17, and C++.
echo '#include <copyperf.h>' >"$tmp/alone.c"
cp "$tmp/alone.c" "$tmp/alone.cpp"
for std in c89 c99 c17; do
	${CC:-cc} -std=$std -Wall -Wextra -Werror -pedantic -I"$(dirname "$header")" -c -o /dev/null \
		"$tmp/alone.c" 2>"$tmp/err" && ok "the header alone compiles as $std" ||
		bad "the header alone as $std: $(head -n 3 "$tmp/err")"
done
for std in c++98 c++17; do
	${CXX:-g++} -std=$std -Wall -Wextra -Werror -I"$(dirname "$header")" -c -o /dev/null \
		"$tmp/alone.cpp" 2>"$tmp/err" && ok "the header alone compiles as $std" ||
		bad "the header alone as $std: $(head -n 3 "$tmp/err")"
done
tally abi
