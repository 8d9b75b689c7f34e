"""A ``def`` pasted after a bound method turns it off with its text unchanged: every door
refuses it, and none offers the dead definition as the place the text moved to.

Before: the bound ``Signer.verify`` was ambiguous, its unchanged text found at
``Signer.verify[1]`` and reported ``moved`` there, with a rebind route that needed no
words; pasted, the rebind put custody on the definition Python no longer runs, and
``forest ci`` passed the branch (text/pysymbol.py, check/move_places.py).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.cli import forest, ok
from tests.helpers.git import commit_all, git, make_repo, pasted, write

CODE = (
    "class Signer:\n"
    "    def verify(self, sig):\n"
    "        return check(sig)\n"
    "\n"
    "    def sign(self, value):\n"
    "        return value\n"
)
SHADOW = CODE.replace(
    "\n    def sign", "\n    def verify(self, sig):\n        return True\n\n    def sign"
)
BOUND = "signer.py::Signer.verify"


def _adopted(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    write(root, "signer.py", CODE)
    commit_all(root, "code")
    ok(root, "init")
    ok(root, "hooks", "install")
    commit_all(root, "custody")
    ok(root, "adopt", BOUND, "--words", "Reviewed signing code")
    commit_all(root, "adopt")
    return root


def _ledger(root: Path) -> list[str]:
    return sorted(p.name for p in (root / ".forest" / "ledger" / "segments").iterdir())


def test_def_pasted_after_bound_method_never_a_move_hostile(tmp_path: Path) -> None:
    root = _adopted(tmp_path)
    write(root, "signer.py", SHADOW)
    report = json.loads(forest(root, "check", "--json").stdout)
    (finding,) = report["findings"]
    assert finding["kind"] == "unresolved"  # was "moved" to Signer.verify[1]
    assert "Signer.verify[1] (line 2, replaced at line 5" in finding["detail"]
    commands = " ".join(r["command"] for r in finding["routes"])
    assert "Signer.verify[1]" not in commands + " ".join(finding["candidates"])
    # the hook refuses the commit, and offers no rebind onto the dead definition
    git(root, "add", "signer.py")
    refused = pasted(root, "git commit -q -m 'simplify verify'")
    assert refused.returncode != 0
    offered = [line for line in refused.stderr.splitlines() if "forest rebind" in line]
    assert offered and not any("Signer.verify[1]" in line for line in offered)


def test_rebind_or_adopt_onto_a_replaced_definition_refused_hostile(tmp_path: Path) -> None:
    root = _adopted(tmp_path)
    write(root, "signer.py", SHADOW)
    before = _ledger(root)
    moved = pasted(root, f"forest rebind {BOUND} '{BOUND}[1]'")
    assert moved.returncode != 0
    assert "is replaced at line 5 by a later def of the same name" in moved.stderr
    assert "bind it (`::Signer.verify[2]` in this file)" in moved.stderr
    adopted = pasted(root, f"forest adopt '{BOUND}[1]' --words 'the old one'")
    assert adopted.returncode != 0 and "is replaced at line 5" in adopted.stderr
    assert _ledger(root) == before  # nothing recorded
    assert (root / "signer.py").read_text() == SHADOW  # nothing written


def test_binding_whose_definition_is_replaced_later_not_clean_hostile(tmp_path: Path) -> None:
    """A getter bound as ``[1]`` beside its setter; the setter then becomes a plain
    ``def`` that replaces it: check and a fresh clone's ``forest ci`` both fail."""
    root = make_repo(tmp_path)
    prop = (
        "class C:\n    @property\n    def x(self):\n        return 1\n\n"
        "    @x.setter\n    def x(self, v):\n        pass\n"
    )
    write(root, "c.py", prop)
    commit_all(root, "code")
    ok(root, "init")
    commit_all(root, "custody")
    ok(root, "adopt", "c.py::C.x[1]", "--words", "The getter")
    commit_all(root, "adopt")
    git(root, "checkout", "-q", "-b", "side")
    write(root, "c.py", prop.replace("    @x.setter\n", ""))
    git(root, "commit", "-q", "--no-verify", "-am", "one x")
    finding = json.loads(forest(root, "check", "--json").stdout)["findings"][0]
    assert finding["kind"] == "unresolved"
    assert "replaced at line 6 by a later def" in finding["detail"]
    first = finding["routes"][0]
    assert first["label"] == "remove what replaces it", finding["routes"]
    assert "delete a later def of the same name at line 6 of c.py" in first["note"]
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(root), str(clone))
    git(clone, "checkout", "-q", "side")
    gate = pasted(clone, "forest ci --base origin/main --format json")
    assert gate.returncode == 1, gate.stderr
    kinds = [f["kind"] for f in json.loads(gate.stdout)["findings"]]
    assert "unresolved" in kinds
    # the route followed: the later def taken out, the getter runs again and is clean
    write(root, "c.py", prop.split("\n\n    @x.setter")[0] + "\n")
    assert [f["kind"] for f in json.loads(forest(root, "check", "--json").stdout)["findings"]] == [
        "clean"
    ]
