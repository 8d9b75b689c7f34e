#!/usr/bin/env bash
# research-notes: notes whose quoted sources and attributed syntheses sit in
# marked regions. Each region is adopted on its own: a quote with where it was
# checked, a synthesis with who made it. The text around them stays free, a
# "tidied" quotation is caught, and recall goes through the library API.
#
#   bash examples/research-notes/run.sh      (with `forest` on PATH)
#
# It works in a temporary copy of notes/ (see ../lib.sh) and removes it at the end.
set -euo pipefail

here=${BASH_SOURCE[0]%/*}
if [ "$here" = "${BASH_SOURCE[0]}" ]; then here=.; fi
here=$(cd "$here" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
workspace research-notes notes recall.py
# recall.py imports forest_files: run it with the interpreter forest is installed in.
forest_bin=$(dirname "$(command -v forest)")
if [ -x "$forest_bin/python" ]; then PATH="$forest_bin:$PATH"; fi

step "Adopt each quoted source as printed, and each synthesis under its author's name."
run git init -q -b main
run forest init
run forest adopt 'notes/commons.md@quote-hardin' \
    --words 'Quoted from Hardin 1968, p. 1244; checked against the print'
run forest adopt 'notes/commons.md@quote-ostrom' \
    --words 'Quoted from Ostrom 1990, p. 14; checked against the print'
run forest adopt 'notes/lighthouses.md@quote-coase' \
    --words 'Quoted from Coase 1974, p. 374; checked against the print'
run forest adopt 'notes/commons.md@synthesis-fisheries' \
    --words 'Synthesis by Ada Author, from Hardin 1968 and Ostrom 1990'
run forest adopt 'notes/lighthouses.md@synthesis-tolls' --as 'Ben Reader <ben@example.org>' \
    --words 'Synthesis by Ben Reader, from Coase 1974'
run forest hooks install
run git add -A
run git commit -q -m 'Notes under custody: quotes and syntheses'

step "Writing around the regions is free: the open questions change, nothing drifts."
edit notes/commons.md 'Find the page for' 'Find the page (and the edition) for'
run forest check
run git commit -q -am 'More open questions'

step "A quotation tidied in passing is caught, and restored as printed."
edit notes/commons.md 'Institutions are rarely' 'Institutions are seldom'
run --expect 1 forest check
run forest restore 'notes/commons.md@quote-ostrom'
run forest check

step "Who made a synthesis, and on what grounds: its chain."
run forest log 'notes/lighthouses.md@synthesis-tolls'

step "Recall through the library API: previews, each with its trust and adopting words."
run python recall.py commons
run python recall.py private

printf '\nresearch-notes: done\n'
