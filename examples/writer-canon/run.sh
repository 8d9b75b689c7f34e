#!/usr/bin/env bash
# writer-canon: a Markdown canon whose character sections are ground. The
# pre-commit hook refuses a silent edit, the watcher keeps an edit as a
# proposal to adopt, and a coverage rule fails a new character nobody adopted.
#
#   bash examples/writer-canon/run.sh      (with `forest` on PATH)
#
# It works in a temporary copy of canon/ (see ../lib.sh) and removes it at the end.
set -euo pipefail

here=${BASH_SOURCE[0]%/*}
if [ "$here" = "${BASH_SOURCE[0]}" ]; then here=.; fi
here=$(cd "$here" && pwd)
# shellcheck source=../lib.sh
source "$here/../lib.sh"
workspace writer-canon canon

SECTIONS=('canon/characters/*.md#Appearance' 'canon/characters/*.md#History'
    'canon/characters/*.md#Voice')

step "Put every character's sections under custody; require it of new characters."
run git init -q -b main
run forest init
printf '# append to forest.toml:\n'
sed 's/^/    /' "$here/forest-tables.toml"
cat "$here/forest-tables.toml" >>forest.toml
run forest adopt "${SECTIONS[@]}" --words 'The canon as of draft 3'
run forest hooks install
run git add -A
run git commit -q -m 'Canon under custody'
run forest status

step "A silent edit of Elias's history: the pre-commit hook refuses it."
edit canon/characters/elias.md 'winter of the flood' 'spring of the flood'
run git add canon/characters/elias.md
run --expect 1 git commit -q -m 'Elias leaves in spring'
run forest restore 'canon/characters/elias.md#History'
run git add -- canon/characters/elias.md

step "The watcher (policy: propose) keeps an edit of Mara's voice as a proposal."
run forest watch --detach
watching=1
edit canon/characters/mara.md 'Asks questions' 'Answers questions with questions; asks questions'
await_proposal
run forest watch status
run forest watch stop
watching=
run forest proposals
pid=$(open_proposal)
run forest proposal show "$pid"
run forest proposal adopt "$pid" --words "Mara's voice, as revised in draft 4"
run git add -- .forest/ledger canon/characters/mara.md
run git commit -q -m "Mara's voice, draft 4"

step "A new character nobody adopted: check and ci fail until it is adopted."
run git switch -q -c tobias
printf '# write canon/characters/tobias.md\n'
cat >canon/characters/tobias.md <<'EOF'
# Tobias

## Appearance
The harbour master's son; a limp he will not explain.

## History
Arrived with Elias's boat.

## Voice
Laughs before the joke is finished.
EOF
run --expect 1 forest check
run git add canon/characters/tobias.md
run git commit -q -m 'Tobias, a first draft'
run --expect 1 forest ci --base main
run forest adopt 'canon/characters/tobias.md#Appearance' 'canon/characters/tobias.md#History' \
    'canon/characters/tobias.md#Voice' --words 'Tobias joins the canon'
run git add -- .forest/ledger
run git commit -q -m 'Adopt Tobias'
run forest ci --base main

printf '\nwriter-canon: done\n'
