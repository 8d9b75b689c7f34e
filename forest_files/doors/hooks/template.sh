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
    # Not there, or there but out of this user's reach (a venv under another user's
    # 0700 home, a checkout shared by a group): the shell's exec error tells them
    # apart (127: not found; 126: found, not to be run). Either way the commit stops.
    "$FOREST_PYTHON" -E -P -c '' 2>/dev/null
    if [ $? -eq 127 ] && [ ! -e "$FOREST_PYTHON" ]; then
        echo "forest-files hook: $FOREST_PYTHON is gone; reinstall forest-files and run 'forest hooks install'" >&2
    else
        echo "forest-files hook: $FOREST_PYTHON is there, but user $(id -un 2>/dev/null) may not run it (it, or a folder above it, is closed to them); commit as the user who installed forest-files, or install forest-files where this user can run it (its README, \"Hooks\") and run 'forest hooks install'" >&2
    fi
    exit 1
fi
# console(): the check with sys.argv[1:] (the hook name, then git's arguments), no
# cyclic collector, and the process ends without the interpreter's teardown.
exec "$FOREST_PYTHON" -E -P -c '
import sys
try:
    from forest_files.doors.hooks.run import console
except (ImportError, OSError) as failed:
    # Not installed for this interpreter, or installed where this user may not read (the
    # packages folder, forest_files or a file in it closed to them): name the closed one.
    import os, site, stat
    def closed(path):
        try:
            mode = os.stat(path).st_mode
        except PermissionError:  # a folder above it closed
            return True
        except OSError:  # not there
            return False
        return not os.access(path, os.R_OK | (os.X_OK if stat.S_ISDIR(mode) else 0))
    package = getattr(sys.modules.get("forest_files"), "__path__", [])
    places = [getattr(failed, "filename", None), *package, *site.getsitepackages()]
    shut = next((p for p in places if isinstance(p, str) and closed(p)), None)
    if shut is None:
        sys.stderr.write("forest-files hook: forest_files is not importable by " + sys.executable
                         + "; reinstall forest-files there and run: forest hooks install\n")
        sys.exit(1)
    try:
        import pwd
        who = "user " + pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError, AttributeError):
        who = "this user"
    sys.stderr.write("forest-files hook: " + sys.executable + " runs, but " + who
                     + " may not read " + shut + " (it, or a folder above it, is closed to"
                     " them), so forest_files cannot be imported; commit as the user who"
                     " installed forest-files, or install forest-files where this user can"
                     " run it (its README, \"Hooks\"), then run: forest hooks install\n")
    sys.exit(1)
console()
' "$hook_name" "$@"
