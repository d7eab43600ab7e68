# SPDX-License-Identifier: GPL-2.0-only
# test_cli_table.sh - every subcommand x every option x bad values of the
# option's kind (sizes, counts, numbers, seeds, node and CPU lists, names
# from a fixed set, file paths), plus an unknown option, a missing value and
# a stray argument: each must exit 2 with exactly one line on stderr and
# nothing on stdout, before anything is measured.
. "$(dirname "$0")/lib.sh"

n_ok=0
# bad DESC ARGS...: exit 2, one line on stderr, an empty stdout, in time.
bad() {
	local desc=$1 rc
	shift
	timeout -k 5 30 "$PAGEHOP" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/err")" -eq 1 ]; then
		n_ok=$((n_ok + 1))
	else
		fail "$desc: exit $rc, stdout $(wc -c <"$TMP/out") bytes, stderr $(wc -l <"$TMP/err") lines: $(head -c 300 "$TMP/err")"
	fi
}

nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
cpus=$(nproc --all)

# Bad values by kind.  Every one is wrong on every machine (node 4096 and
# CPU 1000000 exist nowhere pagehop runs).
BAD_size=("" " -1" "-1" "18446744073709551615" "0" "1X" " 1M" "1M " "+1M" "2000T" "1.5G" "1 G" "0x10" "k")
BAD_count=("" "0" "-1" " 1" "1 " "+1" "99999" "4294967297" "18446744073709551617" "1x" "1.0")
BAD_seed=("" "-1" " 1" "+1" "18446744073709551616" "0x" "0x1g" "1x" "1.5")
BAD_double=("" "-1" " 1" "1 " "+1" "nan" "inf" "1e999" "0x10" "1s" "1,5" ".")
BAD_nodes=("" "4096" "-1" "0-" "x" " 0" "0 " "0," ",0" "0-4096" "99999999999" "0,,0")
BAD_cpus=("" "1000000" "-1" "0-" "x" " 0" "0 " "0,")
BAD_format=("" "xml" "JSON" " json" "json ")
BAD_page_size=("" "3k" "4m" "2g" "1gb" " 4k")
BAD_backend=("" "foo" "KMOD" " anon")
BAD_path=("$TMP/none/x" "/dev/null" "/dev/stdout" "$TMP" "")
[ "$nodes" -eq 1 ] && BAD_nodes+=("!0" "1")
[ "$cpus" -lt 1000 ] && BAD_cpus+=("$cpus")

# The common measuring options and their kinds.
COMMON=(--size:size --page-size:page_size --backend:backend --membind:nodes --interleave:nodes
	--cpunodebind:nodes --physcpubind:cpus --threads:count --time:double --ci:double --format:format)

# Time values that parse but are out of range, per option.
BAD_time_range=("0" "0.0001" "86401" "1e6")
BAD_ci_range=("0" "100.5" "1000")

check_options() {
	local cmd=$1 spec opt kind v i
	shift
	for spec in "$@"; do
		opt=${spec%%:*}
		kind=${spec#*:}
		local -n vals="BAD_$kind"
		for i in "${!vals[@]}"; do
			v=${vals[$i]}
			bad "$cmd $opt '$v'" "$cmd" "$opt" "$v"
			# The --opt=value form goes through the same parser: a few suffice.
			[ "$i" -lt 3 ] && bad "$cmd $opt='$v'" "$cmd" "$opt=$v"
		done
		unset -n vals
		case $opt in
		--time) for v in "${BAD_time_range[@]}"; do bad "$cmd --time $v" "$cmd" --time "$v"; done ;;
		--ci) for v in "${BAD_ci_range[@]}"; do bad "$cmd --ci $v" "$cmd" --ci "$v"; done ;;
		esac
		# The option with no value at all, last on the line.
		bad "$cmd $opt (no value)" "$cmd" "$opt"
	done
}

# Unknown options, a flag given a value, a stray argument.
check_shape() {
	local cmd=$1 flag
	shift
	bad "$cmd --bogus" "$cmd" --bogus
	bad "$cmd -z" "$cmd" -z
	bad "$cmd --bogus=1" "$cmd" --bogus=1
	bad "$cmd stray" "$cmd" stray
	bad "$cmd -- stray" "$cmd" -- stray
	bad "$cmd --help=1" "$cmd" --help=1
	for flag in "$@"; do
		bad "$cmd $flag=1" "$cmd" "$flag=1"
	done
}

for cmd in survey info list; do
	check_options "$cmd" --format:format -f:format
	check_shape "$cmd"
done

check_options stream "${COMMON[@]}" --kernel:kernel --isa:isa
BAD_kernel=("" "fma" "copy,fma" "copy," ",copy" "COPY" " copy")
BAD_isa=("" "avx1024" "AVX2" " avx2" "sse")
check_options stream --kernel:kernel --isa:isa
check_shape stream --nt --reserve --allow-unverified

BAD_pattern=("" "bogus" "random:4K" "seq:64" "tlb:" "tlb:100" "stride:0" "stride:-64" "tlb: 4K"
	"tlb:+4K" "tlb:17179869185G" "page:4X" "random," ",random" "tlb:4K:4K")
check_options chase "${COMMON[@]}" --pattern:pattern --chains:count --seed:seed
bad "chase --chains 17" chase --chains 17
bad "chase --in-kernel --chains 2" chase --in-kernel --chains 2
check_shape chase --in-kernel --reserve --allow-unverified

BAD_page_sizes=("" "thp2" "3k" "4k,2k" "4k," ",4k" "4K 2M")
BAD_pow2=("${BAD_size[@]}" "3K" "2K")
check_options pages --membind:nodes --physcpubind:cpus --time:double --ci:double --format:format \
	--page-sizes:page_sizes --min:pow2 --max:size --tlb-window:size --seed:seed --save:path
bad "pages --tlb-window 3K" pages --tlb-window 3K
bad "pages --max below --min" pages --min 1M --max 64K
for v in "${BAD_path[@]}" out.pdf - x.svg. "$TMP"/; do bad "pages --plot '$v'" pages --plot "$v"; done
for opt in --size --page-size --backend --interleave --cpunodebind --threads; do
	bad "pages $opt (the sweep sets it)" pages "$opt" 1
done
[ "$nodes" -gt 1 ] && bad "pages --membind of two nodes" pages --membind 0,1
[ "$cpus" -gt 1 ] && bad "pages --physcpubind of two CPUs" pages --physcpubind 0,1
check_shape pages --thp --reserve --allow-unverified

BAD_patterns=("${BAD_pattern[@]}")
check_options prefetch --size:size --page-size:page_size --backend:backend --membind:nodes \
	--physcpubind:cpus --time:double --ci:double --format:format --patterns:patterns --seed:seed
for opt in --threads --interleave --cpunodebind; do
	bad "prefetch $opt (one thread)" prefetch "$opt" 1
done
check_shape prefetch --no-control --reserve --allow-unverified

BAD_figures=("" "fma" "latency,fma" "latency," "," "LATENCY")
BAD_groups=("" "0-" "0,0" "x" "0,,1" " 0" "4096" "0-4096")
check_options matrix "${COMMON[@]/--physcpubind:cpus}" --figures:figures --groups:groups \
	--pattern:pattern --lat-size:size --bw-size:size --save:path
for opt in --physcpubind --interleave; do
	bad "matrix $opt (every node pair)" matrix "$opt" 0
done
bad "matrix --membind and --groups of no node" matrix --membind 4096
check_shape matrix --reserve --allow-unverified

SH=$PAGEHOP_ROOT/tests/data/shared
IN=(--input "$SH/amd-6220-4node.matrix.csv" --slit "$SH/amd-6220-4node.numactl.txt")
BAD_metric=("" "lat" "LATENCY" " latency" "hmat")
BAD_tolerance=("${BAD_double[@]}" "1001")
BAD_noise=("${BAD_double[@]}" "51")
BAD_oem_revision=("${BAD_seed[@]}" "4294967296" "0x100000000")
BAD_oem_id=("" "TOOLONG" 'a"b' $'a\tb')
BAD_oem_table_id=("" "TOOLONGID" 'a"b')
BAD_input=("" "$TMP/none.json" "$TMP")
check_options slit --input:input --slit:input --metric:metric --tolerance:tolerance --noise:noise \
	--format:format --save:path --time:double --ci:double --size:size --page-size:page_size \
	--backend:backend --threads:count
for v in "${BAD_path[@]}"; do bad "slit --emit-acpi '$v'" slit "${IN[@]}" --emit-acpi "$v" --oem-id A --oem-table-id B; done
for v in "${BAD_oem_id[@]}"; do bad "slit --oem-id '$v'" slit "${IN[@]}" --emit-acpi "$TMP/x.asl" --oem-id "$v"; done
for v in "${BAD_oem_table_id[@]}"; do bad "slit --oem-table-id '$v'" slit "${IN[@]}" --emit-acpi "$TMP/x.asl" --oem-table-id "$v"; done
for v in "${BAD_oem_revision[@]}"; do
	bad "slit --oem-revision '$v'" slit "${IN[@]}" --emit-acpi "$TMP/x.asl" --oem-id A --oem-table-id B --oem-revision "$v"
done
bad "slit --oem-id without --emit-acpi" slit "${IN[@]}" --oem-id A
bad "slit --slit-table without --emit-acpi" slit "${IN[@]}" --slit-table "$TMP/x"
bad "slit --input with --time" slit "${IN[@]}" --time 1
bad "slit --input with --save" slit "${IN[@]}" --save "$TMP/x.json"
# Short options go through the same parsers.
bad "slit -t 2000" slit "${IN[@]}" -t 2000
bad "slit -n x" slit "${IN[@]}" -n x
bad "slit -m hmat" slit "${IN[@]}" -m hmat
bad "slit -e (no value)" slit "${IN[@]}" -e
bad "slit -i - -s -" slit -i - -s -
# A measurement has no normalised matrix: refused before measuring, on any machine.
bad "slit --metric distance without --input" slit --metric distance
bad "slit -m distance --time 1" slit -m distance --time 1
# Options of other commands, refused with their reason.
for opt in --cpunodebind --membind --physcpubind --interleave; do bad "slit $opt" slit "$opt" 0; done
check_shape slit --reserve --allow-unverified
[ -e "$TMP/x.asl" ] && fail "slit wrote $TMP/x.asl on a usage error"

bad "unknown command" bogus
bad "option before the command" --bogus
bad "help of an unknown command" help bogus

pass "$n_ok bad command lines: exit 2, one line on stderr, nothing on stdout"
finish
