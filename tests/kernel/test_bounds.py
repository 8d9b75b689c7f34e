"""Every input bound at N (accepted) and N+1 (refused), through a public door: a
``ForestStore`` op, the CLI, or a ledger line as replay decodes it. A refusal is a
``BoundsRefused`` naming the field and the bound, never the value (a sentinel is
planted in every value), and leaves the store, the ledger and the files unchanged."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from forest_files import ForestStore, Scroll, root_to_ground
from forest_files.kernel import bounds
from forest_files.kernel.bounds import BoundsRefused
from forest_files.kernel.errors import ForestError
from forest_files.ledger.acts import LedgerError, decode_line
from tests.helpers.acts import act_object, hexid, raw_line, sample_act
from tests.helpers.cli import forest
from tests.helpers.git import commit_all, isolate, make_repo, write
from tests.helpers.store import ADOPTING_WORDS, assert_refused, body_hash_of, make_entry, make_pair

SENT = "Qx7SENTINEL"


def text(n: int, stem: str = "") -> str:
    """``n`` characters starting with ``stem``, the sentinel repeated after it."""
    return (stem + SENT * (n // len(SENT) + 1))[:n]


def nested(depth: int) -> dict[str, Any]:
    """An object ``depth`` containers deep (the top-level object is level 1)."""
    value: dict[str, Any] = {"leaf": SENT}
    for _ in range(depth - 1):
        value = {"k": value}
    return value


def sized(n: int) -> dict[str, Any]:
    """An object whose canonical JSON is exactly ``n`` UTF-8 bytes."""
    pad = n - len('{"payload":""}')
    return {"payload": text(pad)}


def no_value_in(message: str) -> None:
    assert SENT not in message, "a refusal echoed the refused value"


# --- the library door ------------------------------------------------------------------

Op = Callable[[ForestStore, int, Any], Any]


def _write(**fields: Any) -> Op:
    def op(store: ForestStore, origin: int, value: Any) -> Any:
        args: dict[str, Any] = {
            "body": "a note",
            "bucket": "note",
            "signature": "author",
            "origins": [(origin, "derived_from")],
            "scrub": None,
        }
        args.update({k: (value if v is None else v) for k, v in fields.items()})
        return store.write(**args)

    return op


def _body(store: ForestStore, origin: int, value: Any) -> Any:
    store.max_body_bytes = 1000
    return _write(body=None)(store, origin, value)


def _note(store: ForestStore, origin: int) -> int:
    return make_entry(store, origin, "to be rooted")


def _root_words(store: ForestStore, note: int, value: Any) -> Any:
    return root_to_ground(
        store,
        entry_id=note,
        adopting_words=value,
        adopting_signature="author",
        expected_body_hash=body_hash_of(store, note),
    )


def _origins(store: ForestStore, origin: int, value: Any) -> Any:
    return store.write(
        body="a note", bucket="note", signature="author", origins=[(origin, "cites")] * value
    )


def _edge_to(store: ForestStore, origin: int, value: Any) -> Any:
    return store.add_edge(origin, value, "cites")


def _content_id(store: ForestStore, origin: int, value: Any) -> Any:
    return store.local_id(value)


@dataclasses.dataclass(frozen=True)
class Bound:
    name: str
    op: Op
    at_n: Callable[[], Any]
    over: Callable[[], Any]
    # At N the bound lets the value through and the op then refuses it for another
    # reason (an id that names nothing): the refusal must not be this bound's.
    refused_otherwise: bool = False
    # What the op acts on, made before the refused call (default: the pair itself).
    setup: Callable[[ForestStore, int], int] | None = None


N_TEXT = bounds.MAX_TEXT_CHARS
LIBRARY = [
    Bound("signature", _write(signature=None), lambda: text(N_TEXT), lambda: text(N_TEXT + 1)),
    Bound("body bytes", _body, lambda: text(1000), lambda: text(1001)),
    Bound("body bytes utf-8", _body, lambda: "é" * 500, lambda: "é" * 500 + "x"),
    Bound("meta depth", _write(meta=None), lambda: nested(64), lambda: nested(65)),
    Bound("meta depth far", _write(meta=None), lambda: nested(2), lambda: nested(1100)),
    Bound("meta size", _write(meta=None), lambda: sized(16384), lambda: sized(16385)),
    Bound("meta int", _write(meta=None), lambda: {SENT: 1 << 4095}, lambda: {SENT: 1 << 4096}),
    Bound(
        "meta huge int", _write(meta=None), lambda: {SENT: -(1 << 4095)}, lambda: {SENT: 10**5000}
    ),
    Bound("meta nan", _write(meta=None), lambda: {SENT: 1.5}, lambda: {SENT: math.nan}),
    Bound("meta inf", _write(meta=None), lambda: {SENT: -1e308}, lambda: {SENT: -math.inf}),
    Bound("meta tuple", _write(meta=None), lambda: {SENT: [1]}, lambda: {SENT: (1,)}),
    Bound("meta key", _write(meta=None), lambda: {SENT: {"1": 1}}, lambda: {SENT: {1: 1}}),
    Bound(
        "adopting words",
        _root_words,
        lambda: text(N_TEXT, "I adopt "),
        lambda: text(N_TEXT + 1, "I adopt "),
        setup=_note,
    ),
    Bound(
        "words control",
        _root_words,
        lambda: "I adopt\nthis " + SENT,
        lambda: "I adopt\x00" + SENT,
        setup=_note,
    ),
    Bound("origins", _origins, lambda: bounds.MAX_ORIGINS, lambda: bounds.MAX_ORIGINS + 1),
    Bound(
        "entry id",
        _edge_to,
        lambda: bounds.MAX_ENTRY_ID,
        lambda: bounds.MAX_ENTRY_ID + 1,
        refused_otherwise=True,
    ),
    Bound("content id", _content_id, lambda: "a" * 64, lambda: "a" * 64 + SENT, True),
]


@pytest.mark.parametrize("bound", LIBRARY, ids=[b.name for b in LIBRARY])
def test_bounds_library_at_n_accepted_over_refused(
    store: ForestStore, scroll: Scroll, bound: Bound
) -> None:
    origin = make_pair(store, scroll)
    if bound.setup is not None:
        origin = bound.setup(store, origin)
    exc = assert_refused(store, lambda: bound.op(store, origin, bound.over()), exc=BoundsRefused)
    no_value_in(str(exc))
    assert exc.__cause__ is None
    if bound.refused_otherwise:
        with pytest.raises(ForestError) as info:
            bound.op(store, origin, bound.at_n())
        assert not isinstance(info.value, BoundsRefused), info.value
    else:
        bound.op(store, origin, bound.at_n())


def test_bounds_meta_refusal_message_names_field_and_bound_accepted(
    store: ForestStore, scroll: Scroll
) -> None:
    origin = make_pair(store, scroll)
    exc = assert_refused(store, lambda: _write(meta=None)(store, origin, sized(20000)))
    assert str(exc).startswith("meta: ") and "16384" in str(exc)


# --- the CLI door ----------------------------------------------------------------------

CANON = "# Canon\n\nIntro.\n\n" + "".join(f"## H{i}\n\nText {i}.\n\n" for i in range(65))


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    isolate(monkeypatch)
    path = make_repo(tmp_path)
    assert forest(path, "init").exit_code == 0
    write(path, "canon.md", CANON)
    write(path, "small.md", "s" * 8192)
    write(path, "big.md", "b" * 8193)
    toml = path / "forest.toml"
    toml.write_text(toml.read_text().replace("max_body_bytes = 8388608", "max_body_bytes = 8192"))
    commit_all(path, "init")
    return path


def snapshot(repo: Path) -> dict[str, bytes]:
    """The files and the ledger (local caches and the audit log may record a refusal)."""
    out = {}
    for p in sorted(repo.rglob("*")):
        rel = p.relative_to(repo).as_posix()
        if p.is_file() and not rel.startswith(".git/"):
            if rel.startswith(".forest/") and not rel.startswith(".forest/ledger/"):
                continue
            out[rel] = p.read_bytes()
    return out


Args = Callable[[bool], list[str]]  # over -> the command line

CLI: list[tuple[str, Args, str | None, str]] = [
    # (name, args at N / over N, what a non-bound refusal at N says (None: accepted),
    #  what the refusal over N says)
    (
        "--words",
        lambda over: ["adopt", "canon.md#H1", "--words", text(N_TEXT + over)],
        None,
        "--words: is 4097 characters, over the bound of 4096",
    ),
    (
        "--as",
        lambda over: ["adopt", "canon.md#H1", "--words", "ok", "--as", text(N_TEXT + over)],
        None,
        "--as: is 4097 characters, over the bound of 4096",
    ),
    (
        "selector",
        lambda over: ["adopt", "d/" + text(N_TEXT - 2 + over), "--words", "ok"],
        "no such file",
        "the selector is longer than 4096 characters",
    ),
    (
        "path control",
        lambda over: ["adopt", "ca non.md" if not over else "ca\x1fnon" + SENT, "--words", "ok"],
        "no such file",
        "contains NUL or another control character",
    ),
    (
        "path nul",
        lambda over: ["adopt", "canon.md" if not over else "canon\x00" + SENT, "--words", "ok"],
        None,
        "contains NUL or another control character",
    ),
    (
        "body bytes",
        lambda over: ["adopt", "big.md" if over else "small.md", "--words", "ok"],
        None,
        "8193 bytes is over the bound of 8192",
    ),
    (
        "excludes",
        lambda over: [
            "adopt",
            "canon.md",
            "--words",
            "ok",
            *[x for i in range(64 + over) for x in ("--exclude", f"#H{i}")],
        ],
        None,
        "65 exclusions given; at most 64 allowed",
    ),
    (
        "show content id",
        lambda over: ["show", "a" * 64 + ("b" if over else "")],
        "unknown entry",
        "content id: is 65 characters, over the bound of 64",
    ),
]


@pytest.mark.parametrize(
    ("name", "args", "at_n_refusal", "over_says"), CLI, ids=[c[0] for c in CLI]
)
def test_bounds_cli_at_n_accepted_over_refused(
    repo: Path, name: str, args: Args, at_n_refusal: str | None, over_says: str
) -> None:
    before = snapshot(repo)
    over = forest(repo, *args(True))
    assert over.exit_code == 1, (name, over.stdout, over.stderr)
    assert over_says in over.stderr, (name, over.stderr)
    assert snapshot(repo) == before, f"{name}: a refusal changed the files or the ledger"
    no_value_in(over.stdout + over.stderr)
    at_n = forest(repo, *args(False))
    if at_n_refusal is None:
        assert at_n.exit_code == 0, (name, at_n.stdout, at_n.stderr)
    else:
        assert at_n.exit_code == 1 and at_n_refusal in at_n.stderr, (name, at_n.stderr)
        assert "over the bound" not in at_n.stderr and "longer than" not in at_n.stderr


# --- the ledger door (a line as replay decodes it) -------------------------------------


def _line(obj: dict[str, Any]) -> bytes:
    return raw_line(obj)


def _erase_lines(count: int) -> bytes:
    obj = act_object(sample_act("erase", lines=(hexid("line"),)))
    obj["lines"] = sorted(hexid(f"line {i}") for i in range(count))
    return _line(obj)


def _heads(count: int) -> bytes:
    heads = sorted(hexid(f"head {i}") for i in range(count))
    obj = act_object(sample_act("resolve"))
    obj["heads"], obj["pick"] = heads, heads[0]
    return _line(obj)


def _entry(key: str, value: Any) -> bytes:
    obj = act_object(sample_act("write"))
    obj["entry"][key] = value
    return _line(obj)


def _path(path: str) -> bytes:
    obj = act_object(sample_act("rebind"))
    obj["path"] = path
    return _line(obj)


def _hand_meta(token: str) -> bytes:
    """A write line whose meta holds a JSON token canonical encoding cannot make."""
    line = _entry("meta", {"k": "PLACEHOLDER"}).decode()
    return line.replace('"PLACEHOLDER"', token).encode()


def _origins_line(count: int) -> bytes:
    return _entry("origins", sorted([hexid(i), "supersedes"] for i in range(count)))


LEDGER: list[tuple[str, Callable[[], bytes], Callable[[], bytes], str]] = [
    # (name, line at N, line over N, what the refusal says)
    ("tombstone lines", lambda: _erase_lines(8192), lambda: _erase_lines(8193), "more than 8192"),
    ("heads", lambda: _heads(64), lambda: _heads(65), "more than 64"),
    ("act origins", lambda: _origins_line(65), lambda: _origins_line(66), "more than 65"),
    (
        "signature",
        lambda: _entry("signature", text(N_TEXT)),
        lambda: _entry("signature", text(N_TEXT + 1)),
        "'signature' is longer than 4096",
    ),
    (
        "path",
        lambda: _path("d/" + text(N_TEXT - 2)),
        lambda: _path("d/" + text(N_TEXT - 1)),
        "'path' is longer than 4096",
    ),
    ("path control", lambda: _path("d/a b.md"), lambda: _path("d/a\x01" + SENT), "control"),
    (
        "meta depth",
        lambda: _entry("meta", nested(64)),
        lambda: _entry("meta", nested(65)),
        "'meta': nests deeper than 64",
    ),
    (
        "meta size",
        lambda: _entry("meta", sized(16384)),
        lambda: _entry("meta", sized(16385)),
        "'meta': is 16385 bytes as canonical JSON, over the bound of 16384",
    ),
    (
        "meta int",
        lambda: _entry("meta", {SENT: 1 << 4095}),
        lambda: _entry("meta", {SENT: 1 << 4096}),
        "integer of more than 4096 bits",
    ),
    ("meta nan", lambda: _entry("meta", {"k": 1.5}), lambda: _hand_meta("NaN"), "not a JSON"),
    (
        "meta huge int",
        lambda: _entry("meta", {"k": 10**1000}),
        lambda: _hand_meta("1" + "0" * 5000),
        "not a JSON",
    ),
]


@pytest.mark.parametrize(("name", "at_n", "over", "says"), LEDGER, ids=[c[0] for c in LEDGER])
def test_bounds_ledger_line_at_n_accepted_over_refused(
    name: str, at_n: Callable[[], bytes], over: Callable[[], bytes], says: str
) -> None:
    decode_line(at_n(), segment="s", lineno=1)
    with pytest.raises(LedgerError) as info:
        decode_line(over(), segment="s", lineno=1)
    assert says in str(info.value), str(info.value)[:300]
    no_value_in(str(info.value))


# --- the validators themselves ----------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "ok"),
    [("x" * 10, True), ("x" * 11, False), ("   ", False), ("a\tb", False), ("\ud800", False)],
)
def test_bounds_check_text_rules(value: str, ok: bool) -> None:
    if ok:
        assert bounds.check_text("f", value, 10) == value
    else:
        with pytest.raises(BoundsRefused, match=r"^f: "):
            bounds.check_text("f", value, 10)


def test_bounds_check_text_lines_allows_line_breaks_accepted() -> None:
    assert bounds.check_text("f", "a\nb\tc\r\n", 10, lines=True)
    with pytest.raises(BoundsRefused):
        bounds.check_text("f", "a\x00b", 10, lines=True)


def test_bounds_one_definition_reused_accepted() -> None:
    """The modules that had their own copies now name bounds.py's."""
    from forest_files.custody import config
    from forest_files.ledger import acts, kinds
    from forest_files.store import packets
    from forest_files.text import exclude, selector

    assert kinds.MAX_TEXT == bounds.MAX_TEXT_CHARS
    assert kinds.MAX_META_CHARS == bounds.MAX_META_BYTES
    assert kinds.MAX_HEADS == bounds.MAX_HEADS
    assert kinds.MAX_EXCLUDES == exclude.MAX_EXCLUSIONS == bounds.MAX_EXCLUDES
    assert kinds.MAX_LINE_PREFIX == exclude.MAX_LINE_PREFIX == bounds.MAX_LINE_PREFIX
    assert kinds.MAX_TOMBSTONE_LINES == bounds.MAX_TOMBSTONE_LINES
    assert selector.MAX_SELECTOR_CHARS == bounds.MAX_SELECTOR_CHARS
    assert acts.MAX_SCOPE == bounds.MAX_SCOPE_CHARS
    assert packets.MAX_EXCERPT_LEN == bounds.MAX_EXCERPT_LEN
    assert config.MAX_PROJECT_ID_CHARS == bounds.MAX_ID_CHARS
    assert config.DEFAULT_MAX_BODY_BYTES == bounds.DEFAULT_MAX_BODY_BYTES
    assert json.dumps(bounds.MAX_META_DEPTH) == "64"
    assert ADOPTING_WORDS  # the store helpers' words stay within the words bound
    assert len(ADOPTING_WORDS) <= bounds.MAX_WORDS_CHARS


def test_bounds_audit_targets_at_n_kept_over_left_off_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Audit targets (custody/auditlog.py) are a bound that counts, not refuses: a
    recorded ceremony must never fail for its log line. 64 are kept; of 65, the 65th is
    left off and counted."""
    from forest_files.custody.auditlog import MAX_TARGETS, AuditLog, Event
    from forest_files.custody.repository import Repository

    isolate(monkeypatch)
    root = make_repo(tmp_path)
    Repository.init(root, project_id="p").close()
    targets = [hexid(f"t{i}") for i in range(MAX_TARGETS + 1)]
    with AuditLog(root) as log:
        log.append([Event("sync", "ok", "recorded", targets=tuple(targets[:MAX_TARGETS]))])
        log.append([Event("sync", "ok", "recorded", targets=tuple(targets))])
        over, at_n = log.page(limit=2)
    assert list(at_n.targets) == targets[:MAX_TARGETS] and "targets_left_off" not in at_n.counts
    assert list(over.targets) == targets[:MAX_TARGETS] and over.counts["targets_left_off"] == 1
