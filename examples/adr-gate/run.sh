#!/usr/bin/env bash
# adr-gate: accepted ADRs, in MADR and in Nygard's format, bound whole with
# their status (and MADR's date) left out of the hash. Marking an ADR
# superseded passes; editing its decision text is refused by the hook and,
# past the hook, failed by the CI gate, which writes SARIF.
#
#   bash examples/adr-gate/run.sh      (with `forest` on PATH)
#
# It works in a temporary copy of docs/ (see ../lib.sh) and removes it at the end.
set -euo pipefail

here=${BASH_SOURCE[0]%/*}
if [ "$here" = "${BASH_SOURCE[0]}" ]; then here=.; fi
here=$(cd "$here" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
workspace adr-gate docs sarif-summary.py

step "Adopt the accepted ADRs; require it of every ADR once it is accepted."
run git init -q -b main
run forest init
printf '# append to forest.toml:\n'
sed 's/^/    /' "$here/forest-tables.toml"
cat "$here/forest-tables.toml" >>forest.toml
# Nygard's format: the Status section may change (amended, superseded), nothing else.
run forest adopt docs/adr/0001-record-architecture-decisions.md --exclude '#Status' \
    --words 'Accepted in the September review'
# MADR: the front matter's status and date may change, nothing else.
run forest adopt docs/adr/0002-use-madr-for-new-decisions.md \
    docs/adr/0003-keep-the-index-under-forest.md --exclude meta:status --exclude meta:date \
    --words 'Accepted in the autumn reviews'
run forest check
run forest hooks install
run git add -A
run git commit -q -m 'ADRs under custody'

step "ADR 4 is accepted and supersedes ADR 3: status edits pass; ADR 4 must be adopted."
edit docs/adr/0004-keep-the-index-in-the-git-directory.md 'status: proposed' 'status: accepted'
edit docs/adr/0003-keep-the-index-under-forest.md 'status: accepted' \
    'status: "superseded by [ADR-0004](0004-keep-the-index-in-the-git-directory.md)"'
edit docs/adr/0003-keep-the-index-under-forest.md 'date: 2023-11-20' 'date: 2024-06-03'
edit docs/adr/0001-record-architecture-decisions.md 'Accepted' \
    'Accepted

Amended by [2. Use MADR for new decisions](0002-use-madr-for-new-decisions.md)'
run --expect 1 forest check
run forest adopt docs/adr/0004-keep-the-index-in-the-git-directory.md \
    --exclude meta:status --exclude meta:date --words 'Accepted in the June review'
run forest check
run git add -A
run git commit -q -m 'ADR 4 supersedes ADR 3'

step "Rewriting an accepted decision: the hook refuses the commit."
run git switch -q -c rewrite-adr-2
edit docs/adr/0002-use-madr-for-new-decisions.md \
    'Decisions already accepted keep their format.' \
    'Decisions already accepted are converted to MADR.'
run git add docs/adr/0002-use-madr-for-new-decisions.md
run --expect 1 git commit -q -m 'Convert old ADRs too'

step "Past the hook (--no-verify, or a clone without hooks): the CI gate fails, in SARIF."
run git commit -q --no-verify -m 'Convert old ADRs too'
printf '$ forest ci --base main --format sarif > forest.sarif\n'
rc=0
forest ci --base main --format sarif >forest.sarif 2>ci.err || rc=$?
sed 's/^/    /' ci.err
printf '    [exit %s]\n' "$rc"
if [ "$rc" -ne 1 ]; then echo "run.sh: forest ci exited $rc, expected 1" >&2 && exit 1; fi
run python3 sarif-summary.py forest.sarif
run --expect 1 forest ci --base main

printf '\nadr-gate: done\n'
