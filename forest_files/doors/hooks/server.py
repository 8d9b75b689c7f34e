"""The server-side hooks: ``pre-receive`` and ``update`` judge each pushed ref as the CI gate does.

Each ref update (``old new ref``) is judged from its commits alone, in the bare
repository the push lands in, with the pushed objects still in git's quarantine
(gitio keeps ``GIT_OBJECT_DIRECTORY``/``GIT_ALTERNATE_OBJECT_DIRECTORIES`` there,
and ignores replace refs and grafts, as for every git call):

* an existing ref is judged exactly as ``forest ci --base OLD`` judges NEW
  (``run_gate(bare, OLD, head=NEW)``); a new ref (OLD all zeros) from its
  merge-base with the default branch (the bare repository's HEAD); with no
  default branch yet, or no shared history with it, from the root: NEW's root
  commit alone, then root..NEW, so every commit of NEW is judged;
* a ref moved to a commit that does not contain OLD (a force push) must keep
  every act of OLD's ledger (the ledger is append-only: ``ledger-deleted``,
  one finding per segment that lost acts);
* ``update`` judges a ref only where our ``pre-receive`` is not installed (or not
  executable): git runs ``pre-receive`` on every push first, so each ref is judged once;
* a ref with forest.toml neither at NEW nor where it is judged from is not
  under custody: accepted, as the commit hook accepts such a commit;
* deleting a ref is allowed, but for the default branch, which is judged like a
  force push to nothing (it may not drop acts), and for any branch while HEAD names
  a branch that does not exist (``git init --bare`` names master, pushes went to
  main: no branch is known as the default); a ref whose new object is no commit (a
  tag of a tree) has no commits to judge and is allowed.

Stores: the custody views the gate builds (``<bare>/forest/views``), as ``forest ci``.
Refuses: a push with any finding on any of its refs (``pre-receive``: the whole
push; ``update``: that ref), exit 1, printing in every hook's one order (check/text.py
``in_hook_order``, as the pre-commit hook's refusal): the one refusal line naming the
refused refs, each note once (a warning that refuses nothing, e.g. signing under
"warn", however many refs share it, an accepted ref's too), then each refused ref
with its findings as ``forest ci`` prints them (a ``ledger-deleted`` of a push routed
to put the segment back from OLD in the pusher's clone: dropped_acts.py; a finding
without a route under the ``forest ci --base`` that lists it in the pusher's clone, or,
damage the server's ledger held before the push, the ``git -C`` its administrator runs
on the server: unrouted.py), then one line on how to fix it, worded by what was
printed (push_refusal.py ``closing``: the routes only when a finding printed one).
Says, on a push it accepts: each note once (push_refusal.py ``accepted_lines``: a
signing warning under "warn", in ``forest ci``'s words), on stderr, which git relays
to the pusher as ``remote:`` lines; nothing when there is nothing to say.
Returns: the hook's exit code (0 every ref clean).
Test: tests/doors/test_server_hook.py
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from forest_files import gitio
from forest_files.check.findings import Reported
from forest_files.check.text import block, warning_block
from forest_files.doors.hooks.dropped_acts import dropped_acts
from forest_files.doors.hooks.push_refusal import Refusal, accepted_lines, refusal_lines
from forest_files.doors.hooks.unrouted import WayOut, way_out


@dataclass(frozen=True)
class RefUpdate:
    """One pushed ref: ``old`` None for a new ref, ``new`` None for a deletion."""

    ref: str
    old: str | None
    new: str | None


def _object(value: str) -> str | None:
    """An object id, or None for git's all-zeros "no object"."""
    if not value or any(c not in "0123456789abcdef" for c in value):
        raise gitio.UnknownRef(f"not an object id: {value[:80]!r}")
    return None if set(value) == {"0"} else value


def parse_pre_receive(text: str) -> list[RefUpdate]:
    """``pre-receive``'s standard input: one ``old new ref`` line per pushed ref."""
    out: list[RefUpdate] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        fields = line.split(" ", 2)
        if len(fields) != 3:
            raise gitio.GitFailed(f"pre-receive: unreadable line from git: {line[:120]!r}")
        old, new, ref = fields
        out.append(RefUpdate(ref, _object(old), _object(new)))
    return out


def parse_update(args: list[str]) -> RefUpdate:
    """``update``'s arguments: ``ref old new``."""
    if len(args) != 3:
        raise gitio.GitFailed("update: git passes three arguments (ref old new)")
    ref, old, new = args
    return RefUpdate(ref, _object(old), _object(new))


def _git(top: Path, *args: str, ok: tuple[int, ...] = (0,)) -> tuple[int, str]:
    proc = gitio.run_git(top, list(args), ok_codes=ok)
    return proc.returncode, proc.stdout.decode("utf-8", "surrogateescape").strip()


def default_branch(top: Path) -> str | None:
    """The ref the bare repository's HEAD names (``refs/heads/main``), None if detached."""
    code, out = _git(top, "symbolic-ref", "-q", "HEAD", ok=(0, 1))
    return out if code == 0 and out else None


def headless(top: Path, default: str | None) -> bool:
    """HEAD names a branch that does not exist: which branch is the default is unknown."""
    if default is None:
        return False
    code, _ = _git(top, "rev-parse", "-q", "--verify", "--end-of-options", default, ok=(0, 1))
    return code != 0


def _commit(top: Path, rev: str | None) -> str | None:
    """The commit ``rev`` peels to, None for none (no ref, or a tag of a tree or blob).
    An object git does not have is refused (fail closed), never passed as "no commit"."""
    if rev is None:
        return None
    code, out = _git(top, "rev-parse", "-q", "--verify", "--end-of-options", f"{rev}^{{commit}}",
                     ok=(0, 1))  # fmt: skip
    if code == 0 and out:
        return out
    if _git(top, "cat-file", "-e", "--end-of-options", rev, ok=(0, 1, 128))[0] != 0:
        raise gitio.UnknownRef(f"{rev[:40]}: no such object in this repository")
    return None


def _contains(top: Path, old: str, new: str) -> bool:
    code, _ = _git(top, "merge-base", "--is-ancestor", old, new, ok=(0, 1))
    return code == 0


_NO_DEFAULT = (
    "; the server's HEAD names {}, which does not exist, so every branch is kept as the "
    "default is: its administrator sets HEAD to the default branch there "
    "(`git symbolic-ref HEAD refs/heads/main` for main)"
)


def judge(top: Path, update: RefUpdate, default: str | None, *, guard_all: bool = False) -> Refusal:
    """The refusal of ``update`` (its findings as ``forest ci`` prints them); no lines
    when it is accepted. ``guard_all``: HEAD names no branch that exists, so a deleted
    branch is guarded as the default one is."""
    old, new = _commit(top, update.old), _commit(top, update.new)
    dropped: list[Reported] = []
    replaced = new is not None and old is not None and not _contains(top, old, new)
    branch = update.ref.startswith("refs/heads/")
    guarded = update.ref == default or (guard_all and branch)
    if old is not None and (replaced or (new is None and guarded)):
        why = "" if replaced or update.ref == default else _NO_DEFAULT.format(default)
        dropped = dropped_acts(top, old, new, why)  # force-pushed, or the default deleted
    lines = [line for r in dropped for line in block(r, words=False)]
    found = list(dropped) if new is not None else []
    notes: list[str] = []
    way = WayOut()
    if new is not None:
        gate_lines, gate_found, notes, since, server = _gate_lines(top, old, new, default)
        lines += gate_lines
        found += gate_found
        way = way_out(top, found, since=since, server=server)
    if not lines:
        return Refusal(notes=tuple(notes))
    shown = tuple(f"  {line}" for line in [*lines, *way.lines])
    deleted = new is None and bool(dropped)
    routed = any(r.routes for r in found)
    return Refusal(shown, update.ref, tuple(notes), routed, way.pushed, deleted, way.on_server)


def _gate_lines(
    top: Path, old: str | None, new: str, default: str | None
) -> tuple[list[str], list[Reported], list[str], str | None, str | None]:
    """The gate's text for NEW judged from OLD, or from where a new ref starts (``forest
    ci``'s findings and summary), the findings it printed, its warnings as notes
    (said once per push, after the refusal line, as the pre-commit hook says its own),
    the merge-base it judged the range from (None: NEW alone) and the server's commit
    it judged from (None: the root, no commit of the server's)."""
    from forest_files.gate.ci import run_gate
    from forest_files.gate.render_parts import summary_line

    base = old if old is not None else _start(top, new, default)
    rooted = base is None  # no history in common with the default branch: from the root
    if base is None:
        base = _git(top, "rev-list", "--max-parents=0", "--end-of-options", new, "--")[1].split()[0]
    if not (_custody(top, base) or _custody(top, new)):
        return [], [], [], None, None  # under custody at neither end: nothing to guard
    if rooted:  # the root commit by its own ledger (if it has one), then the rest
        reports = [run_gate(top, None, head=base)] if _custody(top, base) else []
        if base != new:
            reports.append(run_gate(top, base, head=new))
    else:
        reports = [run_gate(top, base, head=new)]
    notes = ["\n".join(warning_block(w, words=False)) for r in reports for w in r.warnings]
    if all(r.ok for r in reports):
        return [], [], notes, None, None  # accepted: its warnings still said (accepted_lines)
    lines = [
        line
        for r in reports
        for line in [*(x for f in r.findings for x in block(f, words=False)), summary_line(r)]
    ]
    found = [f for r in reports for f in r.findings]
    return lines, found, notes, reports[-1].merge_base, None if rooted else base


def _custody(top: Path, commit: str) -> bool:
    """``commit`` has a forest.toml: it is under custody."""
    from forest_files.custody.sources import config_text_from

    return config_text_from(top, commit) is not None


def _start(top: Path, new: str, default: str | None) -> str | None:
    """The default branch's commit when NEW shares history with it, else None."""
    tip = gitio.head_commit(top) if default is not None else None  # None: no commit yet
    if tip is None:
        return None
    code, _ = _git(top, "merge-base", tip, new, ok=(0, 1))
    return tip if code == 0 else None


def bare_root() -> Path:
    """The repository the hook runs in (git runs it there), its git directory absolute,
    and named in ``GIT_DIR`` so forest-files' state directories are found there."""
    top = gitio.git_dir(Path.cwd())
    os.environ["GIT_DIR"] = str(top)
    return top


def _judged_before(top: Path) -> bool:
    """Our ``pre-receive`` is installed and runnable: git ran it on this push before any
    ``update``, so ``update`` would judge each ref a second time."""
    from forest_files.doors.hooks.installer import status

    pre = next(s for s in status(top, server=True) if s.name == "pre-receive")
    return pre.state.startswith("ours") and os.access(pre.path, os.X_OK)


def run(hook: str, args: list[str]) -> int:
    """``pre-receive`` (ref lines on stdin) or ``update REF OLD NEW``."""
    top = bare_root()
    update = hook == "update"
    updates = [parse_update(args)] if update else parse_pre_receive(sys.stdin.read())
    if update and _judged_before(top):
        return 0  # our pre-receive judged this push's every ref already (git runs it first)
    default = default_branch(top)
    guard_all = headless(top, default)
    refused = [judge(top, u, default, guard_all=guard_all) for u in updates]
    shown = refusal_lines(refused)
    said = shown or accepted_lines(refused)
    if said:  # git relays a hook's stderr to the pusher as ``remote:`` lines
        sys.stderr.write("\n".join(said) + "\n")
    return 1 if shown else 0
