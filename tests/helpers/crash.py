"""A crash at any moment of a recording command: the crash matrix's harness.

A ``Scenario`` is a repository built once (``build``), a ``forest`` command, and the
files a person wrote with what each may hold after a crash. ``events`` runs the command
once, uncrashed, through ``crash_runner.py`` and lists its state changes; ``crashed``
runs it again in a copy, killed with SIGKILL at one of them; ``assert_recovers`` then
judges that copy as a person would find it: ``forest verify`` and ``forest fsck`` clean,
or refusing in ``forest:`` lines whose fixes, pasted, make them clean; no file a person
wrote lost (a restore's overwritten text in a capture); never an internal error or a
crash log; the same command typed again done or saying it is; then the same work tree,
ledger, ``forest check`` and ``git commit`` (through the installed hooks) as the run
that was never killed (``settle``).

The runs, killed or not, and the commands typed after them live in ``crash_runs.py``;
the commit and its hooks are processes of their own.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tests.helpers.crash_runs import Said, copy, crashed, events, judge, typed
from tests.helpers.git import make_repo, pasted

SEGMENTS = ".forest/ledger/segments/"
NAMES = "crash-names.json"


@dataclass(frozen=True)
class Scenario:
    """``argv`` run in the repository ``build`` makes (in an empty git repository);
    ``{name}`` in a word of it is the name ``build`` returned for it (a content id, a
    proposal id: made anew with each build), kept with the template (``command``).

    ``kept``: each file a person wrote, with every text it may hold after a crash (the
    text before the command, and the text the command writes there, if any).
    ``captured``: a file, and text a capture must hold once the file no longer holds
    ``kept[file][0]`` (the section a restore overwrote). ``already``: what the same
    command typed again says when its work is done (exit 1). ``then``: commands run
    after it, before the commit (``forest hooks install`` after an ``init``).
    ``after``: what must hold once the commit is made. ``standing``: kinds of finding
    ``forest verify`` reports before the command runs (the contest a resolve ends),
    which a crash before its act is recorded leaves as they were.
    """

    name: str
    build: Callable[[Path], Mapping[str, str] | None]
    argv: tuple[str, ...]
    kept: Mapping[str, tuple[str | None, ...]]
    already: str
    captured: tuple[str, str] | None = None
    then: tuple[tuple[str, ...], ...] = field(default=())
    after: Callable[[Path], None] | None = None
    standing: frozenset[str] = frozenset()


def template(tmp_path: Path, scenario: Scenario) -> Path:
    root = make_repo(tmp_path, f"template-{scenario.name}")
    names = scenario.build(root) or {}
    (root / ".git" / NAMES).write_text(json.dumps(dict(names)), encoding="utf-8")
    return root


def command(root: Path, scenario: Scenario) -> tuple[str, ...]:
    """``scenario.argv`` with the names its build returned (kept in the git directory,
    where no command of forest or git looks, so each copy holds them)."""
    names = json.loads((root / ".git" / NAMES).read_text(encoding="utf-8"))
    return tuple(word.format_map(names) for word in scenario.argv)


def spread(count: int, most: int = 30) -> list[int]:
    """At most ``most`` of ``range(count)``, evenly spread, the first and last kept."""
    if count <= most:
        return list(range(count))
    return sorted({round(i * (count - 1) / (most - 1)) for i in range(most)})


def tree(root: Path) -> Counter[str]:
    """Every file of the work tree (``.git`` left out); a segment by its folder alone
    (its name is the hash of acts that carry their time)."""
    found: Counter[str] = Counter()
    for dirpath, dirnames, filenames in os.walk(root):
        if dirpath == str(root):
            dirnames.remove(".git")
        for name in filenames:
            rel = Path(dirpath, name).relative_to(root).as_posix()
            found[SEGMENTS + "*" if rel.startswith(SEGMENTS) else rel] += 1
    return found


@dataclass(frozen=True)
class Settled:
    """What a person finds once the command is done: compared with the uncrashed run."""

    tree: Counter[str]
    check: tuple[int, tuple[str, ...]]
    committed: int


def settle(root: Path, scenario: Scenario) -> Settled:
    """The command typed again (done, or saying it is), then the steps that follow (in
    this process: ``typed``), ``forest verify``/``fsck`` clean, ``forest check`` and
    ``git add -A && git commit`` (git and its hooks, processes of their own)."""
    again = typed(root, *command(root, scenario))
    assert again.returncode == 0 or (
        again.returncode == 1 and re.search(scenario.already, again.stderr)
    ), ("typed again", again.returncode, again.stdout, again.stderr)
    _one_line(again)
    for step in scenario.then:
        done = typed(root, *step)
        assert done.returncode == 0, (step, done.stdout, done.stderr)
    for reader in ("verify", "fsck"):
        done = judge(root, reader)
        assert done.returncode == 0, (reader, done.stdout, done.stderr)
    checked = judge(root, "check", "--json")
    kinds = tuple(sorted(f["kind"] for f in json.loads(checked.stdout)["findings"]))
    shown = tree(root)  # before the commit: the hook may write (its caches live in .git)
    commit = pasted(root, "git add -A && git commit -q -m settled")
    _no_crash_log(root)
    if scenario.after is not None:
        scenario.after(root)
    return Settled(shown, (checked.returncode, kinds), commit.returncode)


def _one_line(done: Said) -> None:
    """A refusal: ``forest:`` lines, never an internal error."""
    said = done.stdout + done.stderr
    assert "internal error" not in said and "Traceback" not in said, said
    if done.returncode != 0:
        assert "forest:" in done.stderr, (done.returncode, said)


def _no_crash_log(root: Path) -> None:
    logs = root / ".git" / "forest" / "crash"
    assert not logs.exists() or not any(logs.iterdir()), sorted(logs.iterdir())


def judged_clean(root: Path, command: str, standing: frozenset[str] = frozenset()) -> None:
    """``forest COMMAND`` clean, or refusing with fixes that make it clean, pasted (in a
    copy: the command typed again must cope with what the crash left, too); or naming
    no fault, only findings of the kinds ``standing`` (there before the command)."""
    done = judge(root, command, "--json")
    _one_line(done)
    if done.returncode == 0 or _only_standing(done, standing):
        return
    assert done.returncode in (1, 3), (command, done.returncode, done.stdout, done.stderr)
    fixes = _fixes(done)
    assert fixes, (command, "no fix named", done.stdout, done.stderr)
    fixed = copy(root, root.parent / f"{root.name}-fixed-{command}")
    for fix in fixes:
        ran = pasted(fixed, fix)
        assert ran.returncode == 0, (command, fix, ran.stdout, ran.stderr)
    again = judge(fixed, command)
    assert again.returncode == 0, (command, fixes, again.stdout, again.stderr)


def _only_standing(done: Said, standing: frozenset[str]) -> bool:
    """A report (exit 1) of no fault and findings of the ``standing`` kinds alone."""
    if not standing or done.returncode != 1:
        return False
    doc = json.loads(done.stdout)
    kinds = {f["kind"] for f in doc.get("findings", [])}
    return not doc.get("faults") and bool(kinds) and kinds <= standing


def _fixes(done: Said) -> list[str]:
    """The commands a refusal names: ``fix`` fields of its JSON, else the first command
    in backticks of its ``forest:`` line."""
    try:
        doc = json.loads(done.stdout)
    except ValueError:
        doc = None
    faults = doc.get("faults", []) if isinstance(doc, dict) else []
    fixes = [f["fix"] for f in faults if isinstance(f, dict) and f.get("fix")]
    named = re.search(r"`([^`]+)`", done.stderr)
    return fixes or ([named.group(1)] if named else [])


def user_files_kept(root: Path, scenario: Scenario) -> None:
    """Every file a person wrote holds one of the texts it may; a restore's new text
    comes with a capture of what it overwrote."""
    for rel, texts in scenario.kept.items():
        path = root / rel
        now = path.read_text(encoding="utf-8") if path.exists() else None
        assert now in texts, (rel, now)
        if scenario.captured is not None and scenario.captured[0] == rel and now != texts[0]:
            captures = root / ".git" / "forest" / "captures"
            held = [p.read_text() for p in captures.iterdir()] if captures.exists() else []
            lost = scenario.captured[1]
            assert any(lost in text for text in held), (rel, "overwritten, its text in no capture")


def assert_recovers(
    trial: Path, scenario: Scenario, at: int | str, expected: Settled | None
) -> None:
    """Crash ``scenario`` at change ``at`` in ``trial`` and judge what it left
    (``expected``: what the run never killed settled to; None: not compared)."""
    crashed(trial, command(trial, scenario), at)
    user_files_kept(trial, scenario)
    _no_crash_log(trial)
    judged_clean(trial, "verify", scenario.standing)
    judged_clean(trial, "fsck", scenario.standing)
    user_files_kept(trial, scenario)
    settled = settle(trial, scenario)
    assert expected is None or settled == expected, (settled, expected)


def crash_everywhere(tmp_path: Path, name: str, scenario: Scenario, most: int) -> None:
    """``scenario`` killed at ``most`` of its changes (``spread``), each in a fresh copy
    of its template, every one judged against what the run never killed settled to."""
    built = template(tmp_path, scenario)
    baseline = copy(built, tmp_path / "baseline")
    changes = events(baseline, command(baseline, scenario))
    expected = settle(baseline, scenario)
    for at in spread(len(changes), most):
        trial = copy(built, tmp_path / f"crash-{at}")
        try:
            assert_recovers(trial, scenario, at, expected)
        except AssertionError as exc:
            raise AssertionError(f"{name} killed at change {at}: {changes[at]}") from exc
