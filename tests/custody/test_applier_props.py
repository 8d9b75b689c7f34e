"""Replay refuses exactly what the live command refuses: one applier, two callers.

A small repository (one adopted section, one adopted unbound text, one
supersede of that text) is built once. For each act kind a command can make
from it, the act is recorded live once and its single-act segment captured.
Hypothesis then edits one field of that act (a leaf or a whole object, nested
``entry``/``record``/``binding`` fields included: a replaced value, a removed
key or an added unknown key) and rebuilds the act with ``make_act``. The edited
act is applied

(a) live: ``Applier(store, read, live=True).apply_many([act])`` inside
    ``store.atomic()`` on the index of the state before the act, rolled back
    afterwards; a refusal is a ``ForestError``;
(b) by replay: the ledger of the state before the act plus the edited act, in
    a copy of that repository, through ``Repository.rebuild()``; a refusal is
    a ``LedgerError``.

(a) refuses iff (b) refuses; when both accept they produce the same entries.
An edit ``make_act`` (the codec) refuses counts as refused by both, and the
raw line must then be refused by ``decode_line`` too. A second property keeps
the fields and gives the act other deps (acts the ledger holds): the two
callers must still agree.
"""

from __future__ import annotations

import copy
import json
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from forest_files.custody.apply import Applier
from forest_files.custody.bindings import all_bindings
from forest_files.custody.lookup import find_binding
from forest_files.custody.record import adopt_sections, rebind_section
from forest_files.custody.repository import Repository
from forest_files.custody.targets import read_section
from forest_files.governance.forget import forget
from forest_files.kernel.errors import ForestError
from forest_files.kernel.hashing import hash_body
from forest_files.ledger import LedgerError, make_act, read_ledger, write_segment
from forest_files.ledger.acts import Act, decode_line
from forest_files.ledger.segment_files import segment_paths
from forest_files.ledger.segments import read_body, read_segment
from forest_files.store.forest import ForestStore
from tests.helpers.acts import raw_line
from tests.helpers.custody import BY, MAX, init_and_adopt, retire, supersede_as_it_stands
from tests.helpers.git import commit_all, isolate, make_repo, write
from tests.helpers.state import local_state

WORDS = "I adopt this text as written"
DOC = "# Title\n\n## Keep\n\nkept words\n\n## Other\n\nother words\n"
UNBOUND = "The river floods in spring."
REVISED = "The river floods in spring and autumn."
LEDGER = Path(".forest") / "ledger"
MAX_EXAMPLES = 40

STRINGS = (
    "",
    " ",
    "x",
    "x" * 4097,
    "docs/a.md",
    "docs/b.md",
    "docs/a.md#Title/Keep",
    "docs/a.md#Title/Other",
    "docs/b.md#Title/Keep",
    "docs/a.md#Nope",
    "docs/a.md::f",
    "../a.md",
    "/etc/passwd",
    "docs//a.md",
    "import",
    "note",
    "anchor",
    "adoption_record",
    "sealing_record",
    "unsealing_record",
    "home",
    "wild",
    "derived_from",
    "adopts",
    "supersedes",
    "seals",
    "unseals",
    "cites",
    "sha256",
    "utf8-nobom-lf",
    "utf8",
    "2024-01-01T00:00:00.000000Z",
    BY,
    "Mallory <mallory@example.org>",
    "amazing!!!",
    "love it!",
    "p",
    "q",
)


class _Rollback(Exception):
    """Raised inside ``store.atomic()`` to undo a live application."""


@dataclass(repr=False)
class KindCase:
    kind: str
    act: Act
    pool: tuple[str, ...]  # ids and hashes of the state: plausible replacements
    store: ForestStore  # the live index of the state before the act
    read: Callable[[str], str | None]
    replay_repo: Repository  # a copy of that state holding every body
    bodies: Path  # that copy's body files as made: put back after each replay

    def __repr__(self) -> str:
        return f"KindCase({self.kind} act {self.act.id[:12]})"


def _base(base: Path) -> Path:
    root = make_repo(base, "base")
    write(root, "docs/a.md", DOC)
    init_and_adopt(root, ["docs/a.md#Keep"], words=WORDS)
    with Repository(root) as r:
        old = r.adopt_text(UNBOUND, words=WORDS, by=BY)
        r.supersede(old, REVISED, words=WORDS, by=BY, expected_body_hash=hash_body(REVISED))
    commit_all(root, "base")
    return root


def _ground_of(root: Path, text: str) -> str:
    with Repository(root) as r:
        return next(g.content_id for g in r.ground() if g.body_hash == hash_body(text))


def _adopt_section(root: Path) -> None:
    with Repository(root) as r:
        section = read_section(root, "docs/a.md#Other", (), max_bytes=MAX)
        adopt_sections(r, [section], words=WORDS, by=BY)


def _adopt_unbound(root: Path) -> None:
    with Repository(root) as r:
        r.adopt_text("Owls hunt at night.", words=WORDS, by=BY)


def _supersede_section(root: Path) -> None:
    write(root, "docs/a.md", DOC.replace("kept words", "kept words, amended"))
    supersede_as_it_stands(root, "docs/a.md#Keep", words=WORDS)


def _supersede_unbound(root: Path) -> None:
    text = "The river never floods."
    with Repository(root) as r:
        r.supersede(
            _ground_of(root, REVISED), text, words=WORDS, by=BY, expected_body_hash=hash_body(text)
        )


def _seal(root: Path) -> None:
    with Repository(root) as r:
        r.seal(_ground_of(root, REVISED), words="held back for review", by=BY)


def _unseal(root: Path) -> None:
    with Repository(root) as r:
        target = next(
            a.payload.target for a in read_ledger(root / LEDGER).acts.values() if a.kind == "seal"
        )
        r.unseal(target, words="released again", by=BY)


def _rebind_setup(root: Path) -> None:
    write(root, "docs/b.md", DOC.replace("other words", "more words"))


def _rebind(root: Path) -> None:
    with Repository(root) as r:
        binding = find_binding(all_bindings(r.synced()), "docs/a.md#Keep")
        section = read_section(root, "docs/b.md#Keep", (), max_bytes=MAX)
        rebind_section(r, binding, section, by=BY)


def _rebind_supersede_setup(root: Path) -> None:
    write(root, "docs/b.md", DOC.replace("## Keep\n\nkept words", "## Kept\n\nkept, amended"))


def _rebind_supersede(root: Path) -> None:
    with Repository(root) as r:
        binding = find_binding(all_bindings(r.synced()), "docs/a.md#Keep")
        section = read_section(root, "docs/b.md#Kept", (), max_bytes=MAX)
        rebind_section(r, binding, section, by=BY, words=WORDS)


def _retire(root: Path) -> None:
    retire(root, "docs/a.md#Keep", words="the section is going away")


def _nothing(root: Path) -> None:
    del root


def _forget(root: Path) -> None:
    """Erase the superseded UNBOUND body (its line tombstoned)."""
    with Repository(root) as r:
        old = next(
            a.payload.old for a in read_ledger(root / LEDGER).acts.values() if a.kind == "supersede"
        )
        forget(r, old, words="pasted by mistake", by=BY)


def _adopt_after_forget(root: Path) -> None:
    with Repository(root) as r:  # depends on the erase: judged against its tombstone
        r.adopt_text("Herons wade at the river mouth.", words=WORDS, by=BY)


# kind label -> (setup recorded before the act, the live command of the act)
RECIPES: dict[str, tuple[Callable[[Path], None], Callable[[Path], None]]] = {
    "adopt-section": (_nothing, _adopt_section),
    "adopt-unbound": (_nothing, _adopt_unbound),
    "supersede-section": (_nothing, _supersede_section),
    "supersede-unbound": (_nothing, _supersede_unbound),
    "seal": (_nothing, _seal),
    "unseal": (_seal, _unseal),
    "rebind": (_rebind_setup, _rebind),
    "rebind-supersede": (_rebind_supersede_setup, _rebind_supersede),
    "retire": (_nothing, _retire),
    "erase": (_nothing, _forget),
    "adopt-after-forget": (_forget, _adopt_after_forget),
}


def _pool(root: Path) -> tuple[str, ...]:
    db = local_state(root) / "woods.db"
    conn = sqlite3.connect(db)
    try:
        ids = {str(r[0]) for r in conn.execute("SELECT content_id FROM entries")}
        ids |= {str(r[0]) for r in conn.execute("SELECT body_hash FROM entries")}
    finally:
        conn.close()
    ids |= set(read_ledger(root / LEDGER).acts)
    return tuple(sorted(ids))


def _case(base: Path, source: Path, label: str, opened: list[Repository]) -> KindCase:
    setup, command = RECIPES[label]
    work = base / label / "work"
    shutil.copytree(source, work)
    setup(work)
    with Repository(work) as r:  # the setup's acts, if any, and a synced index
        r.sync()
    commit_all(work, "setup")
    before = base / label / "before"
    shutil.copytree(work, before)
    old = {p.name for p in segment_paths(work / LEDGER)}
    command(work)
    (new,) = [p for p in segment_paths(work / LEDGER) if p.name not in old]
    (act,) = read_segment(new)
    replay_root = base / label / "replay"
    shutil.copytree(before, replay_root)
    shutil.copytree(work / LEDGER / "bodies", replay_root / LEDGER / "bodies", dirs_exist_ok=True)
    pristine = base / label / "bodies"
    shutil.copytree(replay_root / LEDGER / "bodies", pristine)
    live = Repository(before)
    replay = Repository(replay_root)
    opened += [live, replay]
    post_ledger = work / LEDGER
    return KindCase(
        kind=act.kind,
        act=act,
        pool=_pool(work),
        store=live.synced(),
        read=lambda h: read_body(post_ledger, h),
        replay_repo=replay,
        bodies=pristine,
    )


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, KindCase]]:
    with pytest.MonkeyPatch.context() as mp:
        isolate(mp)
        base = tmp_path_factory.mktemp("applier-props")
        source = _base(base)
        opened: list[Repository] = []
        try:
            yield {label: _case(base, source, label, opened) for label in RECIPES}
        finally:
            for repo in opened:
                repo.close()


# --- mutations -----------------------------------------------------------------------

Path_ = tuple[str | int, ...]


def _paths(value: Any, at: Path_ = ()) -> list[Path_]:
    """Every node below the act's fields: objects, lists and leaves."""
    out: list[Path_] = [at] if at else []
    if isinstance(value, dict):
        for key in sorted(value):
            out += _paths(value[key], (*at, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _paths(item, (*at, i))
    return out


def _get(value: Any, path: Path_) -> Any:
    for step in path:
        value = value[step]
    return value


def _replacements(original: Any, pool: tuple[str, ...]) -> st.SearchStrategy[Any]:
    """Mostly values of the original's own type (they pass the codec and reach the
    applier's checks), sometimes a value of any type (the codec's refusals)."""
    hex64 = st.text("0123456789abcdef", min_size=64, max_size=64)
    anything = st.one_of(
        st.sampled_from(pool),
        st.sampled_from(STRINGS),
        st.integers(-2, 2**64),
        st.none(),
        st.booleans(),
        st.lists(st.one_of(st.sampled_from(pool), st.sampled_from(STRINGS)), max_size=3),
        st.dictionaries(st.sampled_from(("path", "x", "n")), st.text(max_size=3), max_size=2),
    )
    same: list[st.SearchStrategy[Any]] = []
    if isinstance(original, str) and len(original) == 64 and original in pool:
        same += [st.sampled_from(pool), hex64]
    elif isinstance(original, str):
        same += [
            st.sampled_from(
                [original + "x", original[:-1], original.upper(), f" {original}", f"{original} "]
            ),
            st.sampled_from(STRINGS),
            st.sampled_from(pool),
            st.text(max_size=6),
        ]
    elif isinstance(original, list):
        variants = [original[::-1], original[:-1], [*original, *original[:1]], []]
        same += [
            st.sampled_from(variants),
            st.lists(st.sampled_from(pool), min_size=1, max_size=3),
            st.lists(
                st.tuples(st.sampled_from(pool), st.sampled_from(STRINGS)).map(list), max_size=2
            ),
        ]
    elif isinstance(original, dict):
        same += [st.just({}), st.fixed_dictionaries({"path": st.sampled_from(STRINGS)})]
    else:  # None: a binding or source left out
        same += [st.sampled_from(STRINGS)]
    choice = st.one_of(*same, *same, *same, anything)
    return choice.filter(lambda v: type(v) is not type(original) or v != original)


@st.composite
def mutations(draw: st.DrawFn, case: KindCase) -> tuple[str, dict[str, Any]]:
    """A description of one edit and the edited fields."""
    fields = json.loads(json.dumps(dict(case.act.fields)))
    path = draw(st.sampled_from(_paths(fields)), label="field path")
    parent = _get(fields, path[:-1])
    original = parent[path[-1]]
    ops = ["replace"] * 6
    if isinstance(parent, dict):
        ops.append("delete")
    if isinstance(original, dict):
        ops.append("add-key")
    op = draw(st.sampled_from(ops), label="operation")
    edited = copy.deepcopy(fields)
    target = _get(edited, path[:-1])
    if op == "delete":
        del target[path[-1]]
        return f"delete {path}", edited
    if op == "add-key":
        target[path[-1]]["surplus"] = draw(st.sampled_from((None, "x", 0)))
        return f"add a key under {path}", edited
    value = draw(_replacements(original, case.pool), label="new value")
    target[path[-1]] = value
    return f"replace {path} ({original!r:.40}) with {value!r:.60}", edited


# --- the two callers ---------------------------------------------------------------------


def _produced(conn: sqlite3.Connection, act_id: str) -> list[str]:
    rows = conn.execute("SELECT content_id FROM ledger_entry_acts WHERE act_id = ?", (act_id,))
    return sorted(str(r[0]) for r in rows)


def _live(case: KindCase, act: Act) -> tuple[bool, object]:
    """(refused, reason or produced ids) of the live applier on the state before."""
    store = case.store
    outcome: tuple[bool, object] = (True, "not run")
    try:
        with store.atomic():
            try:
                Applier(store, case.read, live=True).apply_many([act])
                outcome = (False, _produced(store.conn, act.id))
            except ForestError as exc:
                outcome = (True, f"{type(exc).__name__}: {exc}")
            raise _Rollback
    except _Rollback:
        pass
    assert not store.conn.in_transaction
    return outcome


def _replay(case: KindCase, act: Act) -> tuple[bool, object]:
    """(refused, reason or produced ids) of a rebuild of the ledger plus ``act``."""
    repo = case.replay_repo
    segment = write_segment(repo.ledger_dir, [act], {})
    try:
        repo.rebuild()
        return False, _produced(repo.store().conn, act.id)
    except LedgerError as exc:
        return True, f"LedgerError({exc.code}): {exc}"
    finally:
        segment.path.unlink()
        # A replayed erase deletes its body file (sync finishes a forget): the next
        # example's ledger must hold every body again, as a real one would.
        shutil.copytree(case.bodies, repo.ledger_dir / "bodies", dirs_exist_ok=True)


def test_recorded_acts_one_per_kind_replayed_accepted(cases: dict[str, KindCase]) -> None:
    """The unedited acts: both callers accept them and produce the same entries."""
    assert {c.kind for c in cases.values()} >= {
        "adopt",
        "supersede",
        "seal",
        "unseal",
        "rebind",
        "retire",
    }
    for label, case in cases.items():
        live, replayed = _live(case, case.act), _replay(case, case.act)
        assert live == replayed, label
        assert live[0] is False, (label, live)


@pytest.mark.slow
@pytest.mark.parametrize("label", list(RECIPES))
@settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_edited_act_live_refusal_iff_replay_refusal_accepted(
    cases: dict[str, KindCase], label: str, data: st.DataObject
) -> None:
    case = cases[label]
    what, fields = data.draw(mutations(case), label="edit")
    try:
        act = make_act(case.act.kind, case.act.deps, fields, scope=case.act.scope)
    except ForestError:
        event("refused by the codec")
        obj = {**fields, "v": 2, "kind": case.act.kind, "deps": list(case.act.deps)}
        obj["scope"] = case.act.scope
        with pytest.raises(LedgerError):
            decode_line(raw_line(obj), segment="edited", lineno=1)
        return
    live, replayed = _live(case, act), _replay(case, act)
    event("refused by both" if live[0] and replayed[0] else f"live {live[0]}, replay {replayed[0]}")
    assert live[0] == replayed[0], f"{label}: {what}\n  live: {live[1]}\n  replay: {replayed[1]}"
    if not live[0]:
        assert live[1] == replayed[1], f"{label}: {what}: different entries produced"


@pytest.mark.slow
@pytest.mark.parametrize("label", list(RECIPES))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_act_with_other_deps_live_refusal_iff_replay_refusal_accepted(
    cases: dict[str, KindCase], label: str, data: st.DataObject
) -> None:
    """The same act with another set of dependencies (acts the ledger holds)."""
    case = cases[label]
    known = sorted(read_ledger(case.replay_repo.ledger_dir).acts)
    deps = data.draw(st.lists(st.sampled_from(known), max_size=3, unique=True), label="deps")
    act = make_act(case.act.kind, deps, dict(case.act.fields), scope=case.act.scope)
    live, replayed = _live(case, act), _replay(case, act)
    event("refused by both" if live[0] and replayed[0] else f"live {live[0]}, replay {replayed[0]}")
    assert live[0] == replayed[0], (
        f"{label}: deps {deps}\n  live: {live[1]}\n  replay: {replayed[1]}"
    )


@pytest.mark.parametrize("with_erase", [True, False])
def test_erased_text_act_live_refusal_iff_replay_refusal_accepted(
    cases: dict[str, KindCase], with_erase: bool
) -> None:
    """An adopt bringing the erased line back: refused by both when the erase is in
    its deps, applied by both (a finding for the gate) when it is not."""
    from forest_files.custody.plan import plan_adoptions

    case = cases["adopt-after-forget"]
    store = case.store
    anchor = store.ensure_anchor("p")
    text = f"{UNBOUND}\nHerons wade."
    (planned,) = plan_adoptions(store, anchor, [(text, {}, None)], words=WORDS, by=BY)
    erase = {
        a for a in case.act.deps if read_ledger(case.replay_repo.ledger_dir).acts[a].kind == "erase"
    }
    assert erase
    deps = set(case.act.deps) if with_erase else set(case.act.deps) - erase
    act = make_act("adopt", deps, planned.to_fields(), scope=case.act.scope)
    bodies = {planned.entry.body_hash: text, planned.record.body_hash: WORDS}
    for body_hash, body in bodies.items():  # readable by the live applier and replay
        path = case.replay_repo.ledger_dir / "bodies" / body_hash[:2] / f"{body_hash}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    live_case = KindCase(
        case.kind,
        act,
        case.pool,
        store,
        lambda h: bodies.get(h) or case.read(h),
        case.replay_repo,
        case.bodies,
    )
    live, replayed = _live(live_case, act), _replay(live_case, act)
    assert live[0] == replayed[0] == with_erase, (live, replayed)
    if with_erase:
        assert "forest forget" in str(live[1]) and "forest forget" in str(replayed[1])


def test_adopt_depending_on_erased_adopt_live_iff_replay_accepted(
    cases: dict[str, KindCase],
) -> None:
    """An adopt depending on an adopt whose body was erased, replayed in one batch of
    adopts (found by the property above): both accept it."""
    case = cases["adopt-after-forget"]
    acts = read_ledger(case.replay_repo.ledger_dir).acts.values()
    erased = [
        a for a in acts if a.kind == "adopt" and a.payload.entry.body_hash == hash_body(UNBOUND)
    ]
    assert erased
    act = make_act("adopt", [erased[0].id], dict(case.act.fields), scope=case.act.scope)
    live, replayed = _live(case, act), _replay(case, act)
    assert live == replayed and live[0] is False, (live, replayed)


@pytest.mark.parametrize("label", list(RECIPES))
def test_act_without_deps_live_refusal_iff_replay_refusal_accepted(
    cases: dict[str, KindCase], label: str
) -> None:
    """The deterministic corner of the property above: the act re-made with no deps."""
    case = cases[label]
    act = make_act(case.act.kind, [], dict(case.act.fields), scope=case.act.scope)
    live, replayed = _live(case, act), _replay(case, act)
    assert live[0] == replayed[0], f"{label}: no deps\n  live: {live[1]}\n  replay: {replayed[1]}"
