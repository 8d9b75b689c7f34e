"""Which lines of ``$GIT_DIR/info/attributes`` set an attribute for a path.

Git reads ``info/attributes`` with the highest precedence: a rule there beats every
``.gitattributes``, so a fix written into a ``.gitattributes`` changes nothing while
it stands. Git itself matches the lines' patterns: the lines naming the attributes
asked about (directly or through a macro) are copied into a probe file of their own,
each setting only an attribute no rule sets, read as ``core.attributesFile`` (from
the top, as info/attributes is).

Stores: the probe, in a private temporary folder of the work tree's git directory,
removed before returning.
Refuses: nothing (an unreadable info/attributes names nothing).
Returns: where info/attributes is (from the top; absolute outside it), or None.
Test: tests/check/test_staged_converted.py, tests/ledger/test_ledger_filter_rule.py
"""

from __future__ import annotations

from pathlib import Path

from forest_files.gitio._run import run_git, split_z
from forest_files.kernel.state import git_dirs, worktree_dir

_PROBE = "forest-info-rule"  # an attribute no rule sets: set only by the probe's lines


def info_rules(root: Path, path: str, names: list[str]) -> str | None:
    """Where ``$GIT_DIR/info/attributes`` is (from the top; absolute outside it) when one
    of its lines names one of the attributes ``names`` for ``path`` (set, unset or
    given a value: the highest-ranked file decides them), else None. Git matches the
    lines' patterns: copied into a file of their own (``core.attributesFile``, read
    from the top as info/attributes is), each sets only the probe attribute."""
    if not names:
        return None
    info = git_dirs(root)[1] / "info" / "attributes"  # git's own: the common directory's
    try:
        text = info.read_bytes().decode("utf-8", "surrogateescape")
    except OSError:
        return None
    patterns = _patterns_naming(text, set(names))
    if not patterns:
        return None
    import tempfile  # not on the hook's start-up: asked only when a finding is routed

    # the probe in a private folder of the git directory, as every file forest writes
    with tempfile.TemporaryDirectory(prefix=".attr-", dir=worktree_dir(root)) as tmp:
        probe = Path(tmp) / "attributes"
        probe.write_bytes(
            "".join(f"{p} {_PROBE}\n" for p in patterns).encode("utf-8", "surrogateescape")
        )
        args = ["-c", f"core.attributesFile={probe}", "check-attr", "-z", _PROBE, "--", path]
        fields = split_z(run_git(root, args).stdout)
    if fields[2:3] != ["set"]:
        return None
    try:
        return info.relative_to(root.resolve()).as_posix()
    except ValueError:  # a linked worktree's common directory: elsewhere
        return str(info)


def _patterns_naming(text: str, names: set[str]) -> list[str]:
    """The patterns (as written: quoted ones kept quoted) of the lines of an attributes
    file that name one of ``names``, directly or through a macro it defines."""
    lines = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        pattern, attrs = _split_rule(line)
        named = {a.lstrip("-!").partition("=")[0] for a in attrs}
        if pattern.startswith("[attr]"):
            if named & names:  # a macro standing for a converting attribute
                names = names | {pattern[len("[attr]") :]}
            continue
        lines.append((pattern, named))
    return [pattern for pattern, named in lines if named & names]


def _split_rule(line: str) -> tuple[str, list[str]]:
    """An attributes line's pattern and its attribute words; a pattern in double
    quotes (git's C-style quoting) ends at its closing quote."""
    if line.startswith('"'):
        at = 1
        while at < len(line) and line[at] != '"':
            at += 2 if line[at] == "\\" else 1
        return line[: at + 1], line[at + 1 :].split()
    first = line.split(None, 1)
    return first[0], (first[1].split() if len(first) > 1 else [])


__all__ = ["info_rules"]
