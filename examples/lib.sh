# shellcheck shell=bash
# Shared by the examples' run.sh scripts (sourced, not run): a temporary
# repository with its own git identity, and commands printed ready to paste.
# Each run.sh calls `workspace NAME FILES...`, then `step`, `run`, `edit`.

if ! command -v forest >/dev/null; then
    echo "run.sh: no forest on PATH; install forest-files (pip install .) and put its bin/ on PATH" >&2
    exit 2
fi

# The examples' own git: no global or system config, no GIT_* of the caller, a fixed author.
while IFS='=' read -r name _; do unset "$name"; done < <(env | grep '^GIT_' || true)
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 NO_COLOR=1
export GIT_AUTHOR_NAME='Ada Author' GIT_AUTHOR_EMAIL=ada@example.org
export GIT_COMMITTER_NAME='Ada Author' GIT_COMMITTER_EMAIL=ada@example.org

work=
watching=
cleanup() {
    if [ -n "$watching" ]; then forest watch stop >/dev/null 2>&1 || true; fi
    cd /
    if [ -n "$work" ]; then rm -rf "$work"; fi
}

# workspace NAME FILES...: a new temporary directory holding a copy of the
# example's FILES (from $here, the run.sh's directory), made the current
# directory and removed at exit.
workspace() {
    local name=$1
    shift
    work=$(mktemp -d "${TMPDIR:-/tmp}/forest-$name.XXXXXX")
    trap cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    # shellcheck disable=SC2154  # here: set by the run.sh that sources this file
    for f in "$@"; do cp -R "$here/$f" "$work/"; done
    cd "$work" || exit 1
}

# quote WORD: the word as a shell reads it back (bare when safe, else single-quoted).
quote() {
    case $1 in
        *[!A-Za-z0-9_./:=,+@-]* | '') printf "'%s'" "${1//\'/\'\\\'\'}" ;;
        *) printf '%s' "$1" ;;
    esac
}

step() { printf '\n== %s\n' "$*"; }

# run [--expect N] CMD...: print the command, ready to paste, then its output, indented.
run() {
    local expect=0 rc=0 out word line='$'
    if [ "$1" = --expect ]; then expect=$2 && shift 2; fi
    for word in "$@"; do line+=" $(quote "$word")"; done
    printf '%s\n' "$line"
    out=$("$@" 2>&1) || rc=$?
    if [ -n "$out" ]; then printf '%s\n' "$out" | sed 's/^/    /'; fi
    if [ "$rc" -ne 0 ]; then printf '    [exit %s]\n' "$rc"; fi
    if [ "$rc" -ne "$expect" ]; then
        echo "run.sh: \`${line#\$ }\` exited $rc, expected $expect" >&2
        exit 1
    fi
}

# edit FILE OLD NEW: replace the first OLD by NEW, as an editor would save it.
edit() {
    local text
    text=$(<"$1")
    if [[ $text != *"$2"* ]]; then
        echo "run.sh: $1 does not hold $(quote "$2")" >&2
        exit 1
    fi
    printf '%s\n' "${text/"$2"/"$3"}" >"$1"
    local old new
    old=$(quote "$2") new=$(quote "$3")
    printf '# edit %s: %s -> %s\n' "$1" "${old//$'\n'/\\n}" "${new//$'\n'/\\n}"
}

# open_proposal: the id of the first open proposal, if any.
open_proposal() {
    forest proposals --json | tr '{' '\n' | grep '"status": "open"' |
        sed -n 's/.*"id": "\([0-9a-f]*\)".*/\1/p' | head -n 1
}

# await_proposal: wait (at most 30 s) until the watcher has recorded a proposal.
await_proposal() {
    local _
    for _ in $(seq 150); do
        if [ -n "$(open_proposal)" ]; then return 0; fi
        sleep 0.2
    done
    echo "run.sh: the watcher recorded no proposal in 30 s; see .git/forest/watch.log" >&2
    exit 1
}
