"""``forest supersede --staged --expect DIGEST``: the hook's one route for a commit.

The staged change is judged again (check/staged.py, the hook's own check) and
its route planned again (check/commit_plan.py); the steps are exactly those
the hook listed when their digest (check/commit_route.py ``plan_digest``: each
binding, the section hash the index gives at its place, a rebind's old and new
selector) equals ``DIGEST``. Each drifted binding is superseded, and each
binding whose section stands at one other place is rebound there (with the
bound descendants a ``forest rebind`` carries), with its section as the git
index holds it (the text being committed, not the working tree's), all in one
segment with one set of words (custody/record_rebind.py ``rebind_and_supersede``:
the rebind and supersede acts as those commands make them); authority is
judged per binding, and nothing is recorded unless every act may be.

Stores: one ledger segment.
Refuses (``ForestError``, one line, nothing recorded): a digest that is not the
staged state's (anything staged changed since the route was printed, a rename
candidate renamed again or a second one come: the fix is to look again),
nothing to record at the index, a binding the working-tree ledger no longer
holds or whose bound descendants differ from the staged ledger's, a target
another live binding holds, a signer without authority over one of the paths.
Returns: ``Recorded``: (old selector, new selector) per rebound binding and
(selector, new ground content id) per superseded one.
Test: tests/check/test_commit_route.py, tests/check/test_commit_rebind.py
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from forest_files.kernel.errors import ForestError
from forest_files.kernel.shellword import forest_text

if TYPE_CHECKING:
    from forest_files.check.commit_plan import StagedTexts
    from forest_files.check.findings import Step
    from forest_files.custody.bindings import Binding
    from forest_files.custody.record import SectionText


def _check_staged() -> str:
    """``forest check --staged`` as the user runs it where they stand."""
    return forest_text("check", options=("--staged",))


class Recorded(NamedTuple):
    """What the route recorded: (old, new selector) per rebind, (selector, ground)
    per supersede, and how many rebinds moved unchanged text (the words are not kept
    with those: nothing was adopted)."""

    rebound: list[tuple[str, str]]
    superseded: list[tuple[str, str]]
    unchanged: int = 0


def supersede_staged(root: Path, expect: str, *, words: str, by: str) -> Recorded:
    """Record every step of the staged change's route, if ``expect`` is its digest."""
    from forest_files.check.commit_plan import StagedTexts
    from forest_files.check.commit_route import plan_digest
    from forest_files.check.staged import judge_staged
    from forest_files.custody.bindings import all_bindings
    from forest_files.custody.content import GitTreeSource
    from forest_files.custody.rebind_moves import refuse_bound_targets
    from forest_files.custody.record import rebind_and_supersede
    from forest_files.custody.repository import Repository

    steps = judge_staged(root).commit
    if not steps:
        raise ForestError(
            f"nothing staged drifts from ground; run `{_check_staged()}` to see what is"
        )
    now = plan_digest(steps)
    if now != expect.strip().lower():
        raise ForestError(
            f"the staged sections changed since the route was printed (it covered {expect}, "
            f"the index now gives {now}); run `{_check_staged()}` and paste the route "
            "it prints"
        )
    with Repository(root) as r:
        live = [b for b in all_bindings(r.synced()) if not b.retired]
        bindings = {b.bind_act: b for b in live}
        paths = {_path_of(sel) for s in steps for sel in (s.old, s.new)}
        texts = StagedTexts(GitTreeSource(r.root, only=tuple(sorted(paths))).read)
        _same_carry(steps, live, texts)
        moves = [_move(bindings, texts, s) for s in steps if s.kind == "rebind"]
        refuse_bound_targets(live, moves)
        items = [_item(bindings, texts, s) for s in steps if s.kind == "supersede"]
        done = rebind_and_supersede(r, moves, items, words=words, by=by)
    return Recorded(
        [(b.selector, sec.selector) for b, sec in moves],
        [(b.selector, new) for (b, _, _), new in zip(items, done.grounds, strict=True)],
        len(moves) - done.adopted,
    )


def _binding(bindings: dict[str, Binding], step: Step) -> Binding:
    binding = bindings.get(step.binding)
    if binding is None or binding.selector != step.old:
        raise ForestError(
            f"{step.old}: the working-tree ledger no longer holds this binding; "
            f"stage .forest/ledger as it stands, then run `{_check_staged()}` again"
        )
    return binding


def _section(texts: StagedTexts, binding: Binding, selector: str, shown: str) -> SectionText:
    """The section at ``selector`` as the index holds it, read with the binding's
    exclusions; refused when it is gone or differs from what the route covered."""
    from forest_files.custody.record import SectionText
    from forest_files.kernel.hashing import hash_body
    from forest_files.text.extract import HASH_ALGO, NORMALISATION

    found = texts.text(selector, binding.excludes)
    if found is None or hash_body(found[1]) != shown:
        raise ForestError(
            f"{selector}: the staged section changed since the route was printed; "
            f"run `{_check_staged()}` and paste the route it prints"
        )
    return SectionText(
        path=_path_of(found[0]),
        selector=found[0],
        excludes=binding.excludes,
        text=found[1],
        normalisation=NORMALISATION,
        hash_algo=HASH_ALGO,
    )


def _path_of(selector: str) -> str:
    from forest_files.text.selector import parse_selector

    return parse_selector(selector).path


def _item(
    bindings: dict[str, Binding], texts: StagedTexts, step: Step
) -> tuple[Binding, SectionText, str]:
    """The binding, its section as the index holds it, and the hash the route covered."""
    binding = _binding(bindings, step)
    return binding, _section(texts, binding, binding.selector, step.section), step.section


def _move(
    bindings: dict[str, Binding], texts: StagedTexts, step: Step
) -> tuple[Binding, SectionText]:
    binding = _binding(bindings, step)
    return binding, _section(texts, binding, step.new, step.section)


def _same_carry(steps: tuple[Step, ...], live: list[Binding], texts: StagedTexts) -> None:
    """Each planned rebind carries exactly what ``forest rebind`` would carry with the
    working-tree ledger (it may hold bindings the staged one does not)."""
    from forest_files.check.commit_plan import by_path, rebind_group

    planned = {s.binding for s in steps if s.kind == "rebind"}
    by_id = {b.bind_act: b for b in live}
    files = by_path(live)
    for s in steps:
        if s.kind != "rebind" or s.carried or s.binding not in by_id:
            continue
        binding = by_id[s.binding]
        group = rebind_group(binding, s.new, files.get(binding.path, ()), texts)
        if not {g.binding for g in group} <= planned:
            raise ForestError(
                f"{s.old}: the working-tree ledger binds more under it than the staged "
                f"one; stage .forest/ledger as it stands, then run `{_check_staged()}` "
                "again"
            )
