# Sourced by run.sh: routines from a shared object (-r FILE:SYMBOL[:overlap]), as a user
# measures a build of their own memcpy beside the C library's.
if [ ! -f "$shared" ]; then
	bad "-r FILE:SYMBOL: no shared object at '$shared'"
else
	# Measured and verified beside a registry routine, under the spec as its name.
	"$cp" -q -r "memcpy,$shared:plain_move" -s 64,4K -t 256K -n 1 >"$tmp/so" 2>"$tmp/err" &&
		[ "$(grep -cE "^$shared:plain_move +(64|4096) .* yes$" "$tmp/so")" -eq 2 ] && ok ||
		bad "-r FILE:SYMBOL: $(cat "$tmp/so" "$tmp/err")"
	# A wrong copy in the shared object is caught like any other.
	"$cp" -q -r "$shared:short_copy" -s 64,4K -t 256K -n 1 >"$tmp/so" 2>"$tmp/err"
	st=$?
	[ "$st" -eq 1 ] && grep -Eq "^$shared:short_copy +4096  FAILED: .*wrong byte at offset 4095" "$tmp/so" &&
		grep -Eq "^$shared:short_copy +64 .* yes$" "$tmp/so" && ok ||
		bad "a wrong copy from a shared object: exit $st, $(cat "$tmp/so" "$tmp/err")"
	# memmove's mixes take it only when the spec says it allows overlap.
	"$cp" -q -r "$shared:plain_move:overlap" -d memmove_fleet -w 16K -n 1 -f json >"$tmp/so.json" 2>"$tmp/err" &&
		grep -q "\"routine\":\"$shared:plain_move:overlap\"" "$tmp/so.json" &&
		grep -q '"verified":true' "$tmp/so.json" && ok ||
		bad "-r FILE:SYMBOL:overlap on a memmove mix: $(cat "$tmp/err") $(head -c 400 "$tmp/so.json")"
	usage_error "memmove's mix without :overlap" "none of the routines allows overlapping buffers" \
		-r "$shared:plain_move" -d memmove_fleet -w 16K
	usage_error "a shared object that is not there" "--routines: '$tmp/none.so:f': cannot open $tmp/none.so" \
		-r "$tmp/none.so:f"
	usage_error "a symbol that is not there" "--routines: '$shared:nosuch': $shared has no symbol 'nosuch'" \
		-r "$shared:nosuch"
	usage_error "a spec with a stray part" "'$shared:a:b': not FILE:SYMBOL or FILE:SYMBOL:overlap" \
		-r "$shared:a:b"
	usage_error "a spec with no symbol" "'$shared:': not FILE:SYMBOL" -r "$shared:"
	usage_error "a symbol named overlap" "--routines: '$shared:overlap': $shared has no symbol 'overlap'" \
		-r "$shared:overlap"
fi
