"""A ledger line that claims a bound path or heading ``forest adopt``'s parser refuses.

A ledger line is a claim: rewritten by hand with its ids and segment name recomputed,
it can name a path or heading holding a leading ``-``, a single quote, ``$(...)``, a
bidirectional override, a zero-width space, a newline or a carriage return. These
builders write such a ledger as a hand could, for the doors' tests
(tests/doors/test_ledger_claimed_names.py, tests/doors/test_mcp_claimed_names.py).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.gate.hostile_ledger import signed
from tests.helpers.custody import adopted_repo
from tests.helpers.git import git

TEXT = "# T\n\n## Hero\n\nbody\n"
SELECTOR = "a.md#T/Hero"


def claimed(root: Path, old: str, new: str) -> None:
    """Each binding field naming ``old`` (or a selector under it) names ``new``: the
    lines rewritten with their ids and the segments' names recomputed, as a hand
    could write them."""
    for seg in sorted((root / ".forest" / "ledger" / "segments").glob("*.jsonl")):
        lines = []
        for line in seg.read_bytes().splitlines():
            act = json.loads(line)
            spec = act.get("binding")
            if isinstance(spec, dict):
                for key in ("path", "selector"):
                    value = str(spec[key])
                    if value == old or value.startswith(old + "#"):
                        spec[key] = new + value[len(old) :]
            lines.append(signed(act).encode() + b"\n")
        data = b"".join(lines)
        seg.unlink()
        seg.with_name(hashlib.sha256(data).hexdigest() + ".jsonl").write_bytes(data)


def forged(tmp_path: Path, *, path: str = "a.md", heading: str = "Hero") -> Path:
    """``a.md#T/Hero`` adopted, then its ledger line claiming ``path`` and ``heading``
    (the file moved and the heading written to match where a name can hold it),
    committed without the hook; on branch ``feature``, HEAD edits the section."""
    root = adopted_repo(tmp_path, "a.md", TEXT, SELECTOR)
    selector = f"{path}#T/{heading}"
    claimed(root, "a.md", path) if heading == "Hero" else claimed(root, SELECTOR, selector)
    if path != "a.md":
        git(root, "mv", "-f", "--", "a.md", path)
    if "\n" not in heading and "\r" not in heading:
        (root / path).write_text(TEXT.replace("## Hero", f"## {heading}"))
    git(root, "add", "-A")
    git(root, "commit", "-q", "--no-verify", "-m", "a hand-written ledger line")
    git(root, "checkout", "-q", "-b", "feature")
    if (root / path).exists():
        (root / path).write_text((root / path).read_text().replace("body", "edited"))
    git(root, "commit", "-q", "-a", "--no-verify", "-m", "a silent edit")
    return root


def ledger_bytes(root: Path) -> dict[str, bytes]:
    """Every file of the ledger, by its path under ``root``, as bytes."""
    found = (root / ".forest" / "ledger").rglob("*")
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in found if p.is_file()}


# A place or heading a hand-written ledger line may claim, each a name the parser
# would refuse at ``forest adopt`` but a ledger line is only a claim.
CLAIMS = [
    pytest.param({"path": "-a.md"}, id="path-dash"),
    pytest.param({"path": "$(touch PWNED)'a.md"}, id="path-subst-quote"),
    pytest.param({"path": "a\u202eb\u200bc.md"}, id="path-bidi-zwsp"),
    pytest.param({"heading": "-Hero"}, id="selector-dash"),
    pytest.param({"heading": "$(touch PWNED)'Hero`x`"}, id="selector-subst-quote"),
    pytest.param({"heading": "\u202eHe\u200bro"}, id="selector-bidi-zwsp"),
]
# Claims the ledger's reader refuses (a line break forging a line where it is read),
# or its replay (another control character: the selector's own refusal, without the
# list of forms a person typing one is shown).
REFUSED = [
    pytest.param({"path": "a\n::error::PWNED.md"}, id="path-newline"),
    pytest.param({"path": "a\r::error::PWNED.md"}, id="path-cr"),
    pytest.param({"heading": "He\n::warning::PWNED"}, id="selector-newline"),
    pytest.param({"heading": "He\rro"}, id="selector-cr"),
    pytest.param({"heading": "He\x07ro"}, id="selector-bel"),
]


def settled_by(root: Path, routes: list[str], heading: str) -> None:
    """The printed route pasted into a shell settles the claim: ``forest restore`` where
    the ground's heading is the file's, else ``forest supersede`` with words; then
    ``forest check`` is clean and no command a name held ran."""
    from tests.helpers.cli import forest
    from tests.helpers.git import pasted

    route = routes[0] if heading == "Hero" else routes[1].replace("'…'", "'the edit is right'")
    done = pasted(root, route)
    assert done.returncode == 0, (route, done.stderr)
    assert forest(root, "check").exit_code == 0
    assert not (root / "PWNED").exists()
