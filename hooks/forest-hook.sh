#!/bin/sh
# forest-files git hook (forest-files-hook v2) — installed by `forest hooks install`.
# It runs the custody check with the interpreter forest-files was installed with,
# after any foreign hook that was here before (kept as HOOK.forest-chained).
# -E: no PYTHON* variable (PYTHONPATH, PYTHONSTARTUP, ...) reaches it; -P: the
# repository it runs in is not on its path. Only installed code runs (a user
# site install included, so not -s or -I).
FOREST_PYTHON=@PYTHON@
hook_name=$(basename "$0")
chained="$(dirname "$0")/$hook_name.forest-chained"
if [ -x "$chained" ] && [ "$hook_name" = pre-receive ]; then
    # git hands pre-receive its ref lines on stdin: the chained hook and ours both read them
    forest_refs=$(cat)
    printf '%s\n' "$forest_refs" | "$chained" "$@" || exit $?
    exec <<FOREST_REFS
$forest_refs
FOREST_REFS
elif [ -x "$chained" ]; then
    "$chained" "$@" || exit $?
fi
if [ ! -x "$FOREST_PYTHON" ]; then
    echo "forest-files hook: $FOREST_PYTHON is gone; reinstall forest-files and run 'forest hooks install'" >&2
    exit 1
fi
# console(): the check with sys.argv[1:] (the hook name, then git's arguments), no
# cyclic collector, and the process ends without the interpreter's teardown.
exec "$FOREST_PYTHON" -E -P -c '
import sys
try:
    from forest_files.doors.hooks.run import console
except ImportError:
    sys.stderr.write("forest-files hook: forest_files is not importable by " + sys.executable
                     + "; reinstall forest-files there and run: forest hooks install\n")
    sys.exit(1)
console()
' "$hook_name" "$@"
