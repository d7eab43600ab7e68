# SPDX-License-Identifier: GPL-2.0-only
# test_stream.sh - "pagehop stream" on this host: every page size that can
# be had, the verified page size in the output, the arrays checked, sanity
# bounds, byte accounting in the output, threads, ISAs, --nt, usage errors.
. "$(dirname "$0")/lib.sh"

for ps in 4k thp 2m 1g; do
	size=64M
	[ $ps = 1g ] && size=1G
	if "$PAGEHOP" stream --kernel triad,read --page-size $ps --size $size --time 0.3 --reserve \
		--threads 1 --format json >"$TMP/s.json" 2>"$TMP/err"; then
		want=$(echo $ps | tr a-z A-Z)
		expect "stream $ps: page sizes in the rows" \
			"$(jq -r '[.stream[].page_size] | unique | join(" ")' "$TMP/s.json")" "$want"
		expect "stream $ps: verified" "$(jq -r '[.stream[].verified] | all' "$TMP/s.json")" true
		expect "stream $ps: arrays valid" "$(jq -r '[.stream[].valid] | all' "$TMP/s.json")" true
		for k in triad read; do
			bw=$(jq -r ".stream[] | select(.kernel == \"$k\") | .bw_GBps" "$TMP/s.json")
			awk -v b="$bw" 'BEGIN { exit !(b > 1 && b < 1000) }' && pass "stream $ps $k: $bw GB/s" ||
				fail "stream $ps $k: $bw GB/s out of (1, 1000)"
		done
	elif [ $? -eq 4 ] && { [ $ps = 1g ] || [ $ps = thp ]; }; then
		pass "stream $ps: skipped, the machine cannot give it now: $(cat "$TMP/err")"
	else
		fail "stream $ps: $(cat "$TMP/err")"
	fi
done

# Byte accounting: bw_wa = bw x bytes_wa / bytes_stream (triad 32/24, copy 24/16, nt: 1).
"$PAGEHOP" stream --kernel copy,triad --size 64M --time 0.3 --threads 1 --format json >"$TMP/b.json" 2>"$TMP/err" ||
	fail "stream copy,triad: $(cat "$TMP/err")"
jq -e '[.stream[] | (.bw_wa_GBps / .bw_GBps) - (if .kernel == "copy" then 1.5 else 4/3 end) | fabs < 0.01] | all' \
	"$TMP/b.json" >/dev/null && pass "write-allocate accounting" || fail "write-allocate: $(jq -c '.stream' "$TMP/b.json")"
"$PAGEHOP" stream --kernel copy --nt --size 64M --time 0.3 --threads 1 --format json >"$TMP/n.json" 2>"$TMP/err" ||
	fail "stream --nt: $(cat "$TMP/err")"
expect "--nt row" "$(jq -r '.stream[0].nt' "$TMP/n.json")" true
expect "--nt: no write-allocate" "$(jq -r '.stream[0] | .bw_wa_GBps == .bw_GBps' "$TMP/n.json")" true

# Every ISA this CPU runs gives valid arrays.
for isa in scalar sse2 avx2 avx512; do
	if "$PAGEHOP" stream --kernel add --isa $isa --size 16M --time 0.2 --threads 1 --format json \
		>"$TMP/i.json" 2>"$TMP/err"; then
		expect "isa $isa: row and valid" "$(jq -r '.stream[0] | "\(.isa) \(.valid)"' "$TMP/i.json")" "$isa true"
	elif [ $? -eq 4 ]; then
		pass "isa $isa: not on this CPU: $(cat "$TMP/err")"
	else
		fail "isa $isa: $(cat "$TMP/err")"
	fi
done

# Threads: one per core by default, each pinned to its own CPU.
"$PAGEHOP" stream --kernel read --size 64M --time 0.3 --format json >"$TMP/t.json" 2>"$TMP/err" ||
	fail "default threads: $(cat "$TMP/err")"
cores=$(lscpu -p=core | grep -v '^#' | sort -u | wc -l)
expect "one thread per core by default" "$(jq -r '.stream[0].threads' "$TMP/t.json")" "$cores"
expect "distinct CPUs" "$(jq -r '[.buffers[].cpu] | unique | length' "$TMP/t.json")" "$cores"

usage_error "unknown kernel" stream --kernel fma
usage_error "unknown isa" stream --isa neon
# read stores nothing: with --nt it runs as it is, and its row says nt=no.
"$PAGEHOP" stream --kernel read,write --nt --size 16M --time 0.2 --threads 1 --format json >"$TMP/r.json" 2>"$TMP/err" ||
	fail "read,write --nt: $(cat "$TMP/err")"
expect "--nt: read plain, write non-temporal" "$(jq -r '[.stream[] | "\(.kernel)=\(.nt)"] | join(" ")' "$TMP/r.json")" \
	"read=false write=true"
usage_error "size too small" stream --kernel triad --size 64
usage_error "size too small once shared by two threads" stream --kernel triad --size 256 --threads 2
usage_error "bad time" stream --time -1
# --repeats: each figure's runs, the between-run columns recomputed from them.
"$PAGEHOP" stream --kernel copy,triad --size 16M --time 0.3 --threads 1 --repeats 3 --format json \
	>"$TMP/rep.json" 2>"$TMP/err" || fail "--repeats 3: $(cat "$TMP/err")"
for k in copy triad; do
	expect_repeats "stream $k" "$TMP/rep.json" ".stream[] | select(.kernel == \"$k\")" \
		"[.stream_repeats[] | select(.kernel == \"$k\")]" bw_GBps GBps 3
done
expect "--repeats 1 (the default): one run, no between-run claim" \
	"$(jq -r '.stream[0] | "\(.repeats) \(.between_runs) \(.bimodal) \(.rep_lo_GBps == .bw_GBps)"' "$TMP/b.json")" \
	"1 one false true"
usage_error "--repeats 0" stream --repeats 0
usage_error "bad ci" stream --ci 0
usage_error "membind and interleave" stream --membind 0 --interleave 0
"$PAGEHOP" list --format json | jq -e '(.stream_kernels | length) == 44 and (.chase_patterns | length) == 5' >/dev/null &&
	pass "list: 44 kernel variants, 5 chase patterns" || fail "list"
finish
