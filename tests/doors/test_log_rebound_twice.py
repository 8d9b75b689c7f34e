"""``forest log`` of a binding two (or three) merged branches rebound, each from ``A.md#X``.

The log walked the acts in order keeping one place per binding, so the rebind
applied second was shown moving from where the first had put the binding ("rebind
B.md#X to C.md#X"), a move no one made. Each rebind is shown from the place its
own deps record (the binding's event it depends on), in the listing, its ``--json``
and one binding's chain (``forest log SELECTOR``).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.cli import findings, ok
from tests.helpers.git import git, pasted
from tests.helpers.rebound import merged_clones, three_merged


def test_log_of_binding_rebound_twice_each_move_from_its_own_place_detected(
    tmp_path: Path,
) -> None:
    for repo in merged_clones(tmp_path):
        acts = json.loads(ok(repo, "log", "--json").stdout)["acts"]
        moves = {(a["moved_from"], a["subject"]) for a in acts if a["kind"] == "rebind"}
        assert moves == {("A.md#X", "B.md#X"), ("A.md#X", "C.md#X")}, acts
        text = ok(repo, "log").stdout
        assert "A.md#X to B.md#X" in text and "A.md#X to C.md#X" in text, text
        assert "B.md#X to C.md#X" not in text and "C.md#X to B.md#X" not in text, text
        for place in ("B.md#X", "C.md#X"):
            chain = json.loads(ok(repo, "log", place, "--json").stdout)
            shown = {(m["moved_from"], m["moved_to"]) for m in chain["moves"]}
            assert shown == {("A.md#X", "B.md#X"), ("A.md#X", "C.md#X")}, chain
            lines = ok(repo, "log", place).stdout
            assert "from A.md#X to B.md#X" in lines and "from A.md#X to C.md#X" in lines


def test_log_of_rebind_settling_binding_rebound_twice_from_where_it_stood_detected(
    tmp_path: Path,
) -> None:
    b, _ = merged_clones(tmp_path)
    (found,) = [f for f in findings(b) if f["kind"] == "contested"]
    stood = found["selector"]  # where the binding stands, the other place its route's
    (route,) = [r for r in found["routes"] if "move it to" in r["label"]]
    assert pasted(b, route["command"]).returncode == 0
    git(b, "commit", "-q", "-m", "settle")
    acts = json.loads(ok(b, "log", "--json").stdout)["acts"]
    settle = [a for a in acts if a["kind"] == "rebind"][-1]
    assert settle["moved_from"] == stood and settle["subject"] != stood, settle


def test_log_of_the_other_branchs_place_says_merged_branches_rebound_it_detected(
    tmp_path: Path,
) -> None:
    """``forest log`` of the place the losing branch rebound the binding to printed
    "B.md#X: moved; its binding is C.md#X now", a move no one made: now it says merged
    branches rebound it there, where it stands, and that ``forest check`` prints the
    routes that settle it; once settled, the place reads as moved again."""
    b, _ = merged_clones(tmp_path)
    (found,) = [f for f in findings(b) if f["kind"] == "contested"]
    stands = found["selector"]
    (other,) = {"B.md#X", "C.md#X"} - {stands}
    first = ok(b, "log", other).stdout.splitlines()[0]
    assert first == (
        f"{other}: its binding was rebound on two merged branches, here and to {stands}; "
        f"it stands at {stands} until one more rebind settles it (`forest check` prints "
        "the routes)"
    ), first
    (keep,) = [r for r in found["routes"] if r["argv"][0][-1] == stands]
    assert pasted(b, keep["command"]).returncode == 0
    git(b, "commit", "-q", "-m", "settle")
    first = ok(b, "log", other).stdout.splitlines()[0]
    assert first == f"{other}: moved; its binding is {stands} now", first


def test_log_of_a_place_three_merged_branches_rebound_names_the_others_detected(
    tmp_path: Path,
) -> None:
    """Three branches: the log of each place it does not stand at names the count, the
    two other places, and where it stands."""
    b = three_merged(tmp_path)
    (found,) = [f for f in findings(b) if f["kind"] == "contested"]
    stands = found["selector"]
    for place in sorted({"B.md#X", "C.md#X", "D.md#X"} - {stands}):
        first = ok(b, "log", place).stdout.splitlines()[0]
        (third,) = {"B.md#X", "C.md#X", "D.md#X"} - {stands, place}
        assert first.startswith(f"{place}: its binding was rebound on three merged branches")
        assert f"here and to {stands}, {third}; it stands at {stands} until" in first, first


def test_log_of_the_place_a_rebound_binding_stands_says_merged_branches_rebound_it_detected(
    tmp_path: Path,
) -> None:
    """``forest log`` of the place where a binding merged branches rebound stands
    printed its selector alone, nothing saying it is contested: now a line first says
    it was rebound there and to the other places, on how many branches, that it stands
    here until one more rebind settles it, and that ``forest check`` prints the routes
    (two branches, then three); once settled, the log begins with its selector again."""
    b, _ = merged_clones(tmp_path)
    (found,) = [f for f in findings(b) if f["kind"] == "contested"]
    stands = found["selector"]
    (other,) = {"B.md#X", "C.md#X"} - {stands}
    shown = ok(b, "log", stands).stdout.splitlines()
    assert shown[0] == (
        f"{stands}: its binding was rebound on two merged branches, here and to {other}; "
        "it stands here until one more rebind settles it (`forest check` prints the routes)"
    ), shown
    assert shown[1] == stands, shown
    (keep,) = [r for r in found["routes"] if r["argv"][0][-1] == stands]
    assert pasted(b, keep["command"]).returncode == 0
    git(b, "commit", "-q", "-m", "settle")
    assert ok(b, "log", stands).stdout.splitlines()[0] == stands
    three = three_merged(tmp_path / "three")
    (found,) = [f for f in findings(three) if f["kind"] == "contested"]
    stands = found["selector"]
    first = ok(three, "log", stands).stdout.splitlines()[0]
    others = ", ".join(sorted({"B.md#X", "C.md#X", "D.md#X"} - {stands}))
    assert first.startswith(f"{stands}: its binding was rebound on three merged branches"), first
    assert "here and to " in first and "; it stands here until" in first, first
    assert ", ".join(sorted(first.split("here and to ")[1].split(";")[0].split(", "))) == others
