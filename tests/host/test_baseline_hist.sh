# SPDX-License-Identifier: GPL-2.0-only
# test_baseline_hist.sh - pagehop baseline --histogram and pagehop check
# --histogram: each latency figure's distribution, the runs its tails come
# from, as a table histogram whose counts add up to the tails' runs, its
# buckets ascending, apart, and on the edges 2^(i/4) ns worked out here;
# --histogram alone means bare --percentiles (p99), a --percentiles in
# either order gives the list; a distribution taken on a busy host says so;
# check carries it in its JSON only and never judges it: the table (the
# plugin's line and long output) and the prom metrics hold no histogram,
# and the line and the exit code are those without it where they can be
# compared (a verdict reached before measuring; figures measured alike).
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip_test "needs root: baseline and check measure on verified memory (pagemap)"
command -v python3 >/dev/null || skip_test "needs python3"
B=$TMP/b.json

# ---- usage: --histogram takes no value; its tails are above 50 and below 100 ----
usage_error "baseline --histogram=3" baseline --histogram=3
usage_error "baseline --histogram --percentiles=50" baseline --histogram --percentiles=50
usage_error "baseline --percentiles=99,100 --histogram" baseline --percentiles=99,100 --histogram
# check's bad usage is UNKNOWN (3), its reason on stdout as the line.
usage3 "check --histogram=3" --histogram=3
usage3 "check --histogram --percentiles=50" --histogram --percentiles=50

# hist_ok DOC WHAT PCTS: the histogram of DOC against its tails table, by hand.
hist_ok() {
	python3 - "$1" "$2" "$3" <<'EOF'
import json, math, sys
doc, what, pcts = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
ok = True
def check(cond, msg):
    global ok
    print(("ok: " if cond else "FAIL: ") + what + ": " + msg)
    ok = ok and cond
tails, hist, notes = doc.get("tails", []), doc.get("histogram"), doc.get("notes", [])
check(hist is not None and len(hist) > 0, "a histogram table with rows")
hist = hist or []
check(sorted({t["pct"] for t in tails}) == [float(p) for p in pcts.split(",")],
      "the tails asked: p%s (%s)" % (pcts, sorted({t["pct"] for t in tails})))
# Each latency figure's tails share its runs: the figure's name ends the tail's.
runs = {}
for t in tails:
    key = (t["figure"].split("_", 2)[2], t["node"], t["mem_node"])
    runs.setdefault(key, set()).add(t["runs"])
groups = {}
for r in hist:
    groups.setdefault((r["figure"], r["node"], r["mem_node"]), []).append(r)
with_runs = {k for k, v in runs.items() if max(v) > 0}
check(set(groups) == with_runs, "a histogram for every latency figure whose distribution was taken (%s)" %
      ", ".join("%s %d->%d" % k for k in sorted(with_runs)))
for k, rows in sorted(groups.items()):
    name = "%s %d->%d" % k
    n = sum(r["count"] for r in rows)
    check(len(runs.get(k, ())) == 1 and n == next(iter(runs[k])),
          "%s: the counts add up to the tails' runs (%d, tails say %s)" % (name, n, sorted(runs.get(k, ()))))
    check(all(r["count"] >= 0 for r in rows), "%s: no count below 0" % name)
    apart = all(a["hi_ns"] <= b["lo_ns"] for a, b in zip(rows, rows[1:]))
    check(apart and all(r["lo_ns"] < r["hi_ns"] or r["hi_ns"] == 0 for r in rows),
          "%s: %d buckets ascending, each [lo, hi) before the next" % (name, len(rows)))
    # Positive buckets: [2^(i/4), 2^((i+1)/4)), consecutive i, edges
    # printed to 3 decimals; a first bucket of samples <= 0 is [min, 0].
    pos = [r for r in rows if r["lo_ns"] > 0]
    ii = [round(4 * math.log2(r["lo_ns"])) for r in pos]
    edges = all(abs(r["lo_ns"] - 2 ** (i / 4)) <= 0.0005 + 1e-9 and abs(r["hi_ns"] - 2 ** ((i + 1) / 4)) <= 0.0005 + 1e-9
                for r, i in zip(pos, ii))
    check(edges and ii == list(range(ii[0], ii[0] + len(ii))) and len(rows) - len(pos) <= 1,
          "%s: edges 2^(i/4) ns, i from %s to %s, none missing" % (name, ii[0] if ii else "-", ii[-1] if ii else "-"))
    check(rows[0]["count"] > 0 and rows[-1]["count"] > 0, "%s: the first and last buckets hold a run" % name)
    busy = [t for t in tails if (t["figure"].split("_", 2)[2], t["node"], t["mem_node"]) == k and not t["host_quiet"]]
    said = [x for x in notes if x.startswith("histogram of node %d->%d %s: " % (k[1], k[2], k[0]))]
    if busy:
        why = [t["why_not"] for t in busy if t["why_not"].startswith("the host was not quiet (")]
        check(len(said) == 1 and "busy host" in said[0] and "the host was not quiet (" in said[0] and
              all(w in said[0] for w in why), "%s: taken on a busy host, and a note says so with the tails' reason: %s" %
              (name, said[0] if said else "none"))
    else:
        check(not said, "%s: taken on a quiet host, no busy note" % name)
method = [x for x in notes if x.startswith("histogram: ")]
check(len(method) == 1 and all(w in method[0] for w in ("hops", "timer", "never single loads", "2^(i/4)", "never judges")),
      "the method note says what is bucketed: %s" % (method[0] if method else "none"))
sys.exit(0 if ok else 1)
EOF
}

# ---- baseline: bare --histogram is bare --percentiles, p99 ----
"$PAGEHOP" baseline --repeats 2 --time 0.3 --histogram --format json --save "$B" >"$TMP/b.out" 2>"$TMP/err"
rc=$?
[ $rc -le 1 ] && [ -s "$B" ] || fail "baseline --histogram: exit $rc: $(cat "$TMP/err")"
hist_ok "$B" "baseline --histogram" 99 || _failed=1
cmp -s "$B" "$TMP/b.out" && pass "baseline --save: the document saved is the one printed" ||
	fail "baseline --save: the saved document differs from stdout"
for args in "--percentiles=90,99.5 --histogram" "--histogram --percentiles=90,99.5"; do
	# shellcheck disable=SC2086
	"$PAGEHOP" baseline --repeats 1 --time 0.3 $args --format json >"$TMP/b2.json" 2>"$TMP/err"
	rc=$?
	[ $rc -le 1 ] || fail "baseline $args: exit $rc: $(cat "$TMP/err")"
	hist_ok "$TMP/b2.json" "baseline $args" 90,99.5 || _failed=1
done
"$PAGEHOP" baseline --repeats 1 --time 0.3 --histogram --format csv >"$TMP/b.csv" 2>"$TMP/err"
grep -q '^# table: histogram$' "$TMP/b.csv" && grep -A1 '^# table: histogram$' "$TMP/b.csv" | grep -q '^figure,node,mem_node,lo_ns,hi_ns,count$' &&
	pass "baseline --format csv: the histogram table, figure node mem_node lo_ns hi_ns count" ||
	fail "baseline --format csv: no histogram table: $(grep -A1 histogram "$TMP/b.csv" | head -n 3)"
"$PAGEHOP" baseline --repeats 1 --time 0.3 --percentiles --format json >"$TMP/b0.json" 2>"$TMP/err"
expect "baseline --percentiles without --histogram: no histogram" \
	"$(python3 -c 'import json, sys; print("histogram" in json.load(open(sys.argv[1])))' "$TMP/b0.json")" False

# ---- check: the histogram in the JSON, never judged ----
"$PAGEHOP" check --baseline "$B" --histogram --budget 6 --format json --prom-file "$TMP/c.prom" >"$TMP/c.json" 2>"$TMP/err"
rc=$?
[ $rc -le 3 ] || fail "check --histogram --format json: exit $rc: $(cat "$TMP/err")"
hist_ok "$TMP/c.json" "check --histogram --format json" 99 || _failed=1
python3 - "$TMP/c.json" "$rc" <<'EOF' || _failed=1
import json, sys
doc, rc = json.load(open(sys.argv[1])), int(sys.argv[2])
v = doc["verdict"]
bad = [f["figure"] for f in doc.get("figures", []) + doc.get("findings", []) if "hist" in f["figure"]]
ok = v["exit_code"] == rc and not bad and "hist" not in v["perfdata"] and "hist" not in v["line"]
print(("ok: " if ok else "FAIL: ") + "check --histogram: exit %d as the verdict says (%d); no figure, finding, perfdata or line of the histogram %s" % (rc, v["exit_code"], bad))
sys.exit(0 if ok else 1)
EOF
grep -q -i -w 'histogram\|lo_ns\|hi_ns\|bucket' "$TMP/c.prom" && fail "check --histogram --prom-file: the metrics name a histogram" ||
	pass "check --histogram --prom-file: no histogram in the metrics"

# The table (the plugin's output) and prom: no histogram, a warning on
# stderr.  The pattern finds baseline's histogram (the control).
grep -q -i -w 'histogram\|lo_ns\|hi_ns\|bucket' "$TMP/b.csv" && pass "the pattern finds a histogram in baseline's output" ||
	fail "the pattern finds no histogram in baseline's output"
for fmt in table prom; do
	"$PAGEHOP" check --baseline "$B" --histogram --budget 6 --format $fmt >"$TMP/c.$fmt" 2>"$TMP/err"
	rc=$?
	[ $fmt = table ] && rc_table=$rc
	grep -q -i -w 'histogram\|lo_ns\|hi_ns\|bucket' "$TMP/c.$fmt" && fail "check --histogram --format $fmt: stdout has the histogram" ||
		pass "check --histogram --format $fmt: stdout has no histogram ($(wc -l <"$TMP/c.$fmt") lines, exit $rc)"
	grep -q "warning: --histogram: only --format json carries the histogram" "$TMP/err" &&
		pass "check --histogram --format $fmt: stderr says it was left out" ||
		fail "check --histogram --format $fmt: no warning: $(cat "$TMP/err")"
done
st=$(sed -n '1s/^PAGEHOP \(OK\|WARNING\|CRITICAL\|UNKNOWN\) - .*/\1/p' "$TMP/c.table")
expect "check --histogram --format table: the first line is the verdict, its status the exit code's ($rc_table)" \
	"$st" "$(echo OK WARNING CRITICAL UNKNOWN | cut -d' ' -f$((rc_table + 1)))"

# A verdict reached before measuring (a baseline of another model): the
# same line and exit code with --histogram as without, in every format.
python3 - "$B" "$TMP/other.json" <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
d["identity"]["model_key"] = re.sub(r"nodes=[0-9]+", "nodes=64", d["identity"]["model_key"])
json.dump(d, open(sys.argv[2], "w"))
EOF
for fmt in table json prom; do
	"$PAGEHOP" check --baseline "$TMP/other.json" --budget 5 --format $fmt >"$TMP/o0" 2>/dev/null
	rc0=$?
	"$PAGEHOP" check --baseline "$TMP/other.json" --budget 5 --format $fmt --histogram >"$TMP/o1" 2>/dev/null
	rc1=$?
	if [ $fmt = json ]; then
		l0=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["verdict"]["line"])' "$TMP/o0")
		l1=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["verdict"]["line"])' "$TMP/o1")
	elif [ $fmt = prom ]; then
		# Every metric but the run's duration and time stamp.
		l0=$(grep -v 'duration\|timestamp' "$TMP/o0" | md5sum)
		l1=$(grep -v 'duration\|timestamp' "$TMP/o1" | md5sum)
	else
		l0=$(head -n 1 "$TMP/o0")
		l1=$(head -n 1 "$TMP/o1")
	fi
	expect "check --format $fmt against another model: exit and first line the same with --histogram ($l0)" \
		"$rc1 $l1" "$rc0 $l0"
done

# Measured: with every band open, check's status comes from the figures it
# measured, the tails it could claim and the settings; where both runs
# measured and claimed the same (their perfdata names the same figures)
# and read the same settings (other work on the host can change a
# hugepage pool between them), --histogram leaves the status and exit
# code as they were.
open=latency=none:none,bandwidth=none:none,memory=none:none,pages=none:none,tail=none:none
"$PAGEHOP" check --baseline "$B" --percentiles --tolerance $open --budget 6 >"$TMP/m0" 2>/dev/null
rc0=$?
"$PAGEHOP" check --baseline "$B" --percentiles --histogram --tolerance $open --budget 6 >"$TMP/m1" 2>/dev/null
rc1=$?
names() { head -n 1 "$1" | sed -n 's/^[^|]*| //p' | tr ' ' '\n' | sed 's/=.*//' | sort | tr '\n' ' '; }
status() { head -n 1 "$1" | sed -n 's/^PAGEHOP \([A-Z]*\) - .*/\1/p'; }
settings() { sed -n '/^settings:$/,/^$/p' "$1"; }
if [ "$(names "$TMP/m0")" = "$(names "$TMP/m1")" ] && [ "$(settings "$TMP/m0")" = "$(settings "$TMP/m1")" ]; then
	expect "check with open bands, the same figures measured ($(names "$TMP/m0")): status and exit with --histogram as without" \
		"$(status "$TMP/m1") $rc1" "$(status "$TMP/m0") $rc0"
else
	echo "note: the two checks measured different figures or read different settings (other work on the host): their verdicts are not compared"
	echo "  without: $(head -n 1 "$TMP/m0")"
	echo "  with:    $(head -n 1 "$TMP/m1")"
fi
grep -q -i -w 'histogram\|lo_ns\|hi_ns' "$TMP/m1" && fail "check --histogram (table): stdout has the histogram" ||
	pass "check --histogram (table), open bands: no histogram on stdout"
finish
