#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# docs/update-man.sh PAGEHOP [PAGE] - rewrite the generated parts of the man
# page (default docs/pagehop.1) from the command's own tables: between
#   .\" BEGIN generated: pagehop ARGS
#   .\" END generated
# goes what 'PAGEHOP ARGS' prints ('--man-options CMD': the command's option
# declaration, as --help prints it; '--man-exit-status': ph_exit_codes[]).
# Everything else in the page is written by hand.  tests/host/test_docs.sh
# runs this on a copy and fails if the page differs: run it after changing
# an option or an exit code, and commit the page.
set -euo pipefail
bin=${1:?usage: update-man.sh PAGEHOP [PAGE]}
page=${2:-$(cd "$(dirname "$0")" && pwd)/pagehop.1}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
in=0
while IFS= read -r line; do
	case $line in
	'.\" BEGIN generated: pagehop '*)
		[ $in -eq 0 ] || { echo "$page: BEGIN inside a generated part: $line" >&2; exit 1; }
		echo "$line"
		read -ra args <<<"${line#'.\" BEGIN generated: pagehop '}"
		"$bin" "${args[@]}" || { echo "$page: '$bin ${args[*]}' failed" >&2; exit 1; }
		in=1 ;;
	'.\" END generated')
		[ $in -eq 1 ] || { echo "$page: END without BEGIN" >&2; exit 1; }
		echo "$line"
		in=0 ;;
	*) [ $in -eq 1 ] || echo "$line" ;;
	esac
done <"$page" >"$tmp"
[ $in -eq 0 ] || { echo "$page: a generated part has no END" >&2; exit 1; }
cat "$tmp" >"$page"
