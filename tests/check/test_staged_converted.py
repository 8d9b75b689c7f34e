"""A ``.gitattributes`` clean filter added after adoption: the staged blob is the
filter's output, so the hook and ``forest check --staged`` reported drift (or "not
valid Python") while the working tree was clean, with no word about the filter. The
finding now names the attribute and the ``git check-attr -a -- PATH`` that shows it;
a staged edit with no conversion says nothing of the kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forest_files.check.staged import judge_staged
from tests.helpers.cli import findings, forest, ok
from tests.helpers.git import commit_all, git, make_repo, write

SOURCE = "def total():\n    return 1\n"


def _adopted(tmp_path: Path) -> Path:
    root = make_repo(tmp_path)
    ok(root, "init")
    write(root, "m.py", SOURCE)
    ok(root, "adopt", "m.py::total", "--words", "Signed off")
    commit_all(root, "adopt")
    return root


def _staged_details(root: Path) -> list[str]:
    out = json.loads(forest(root, "check", "--staged", "--json").stdout)
    return [f["detail"] for f in out["findings"]]


@pytest.mark.slow  # three checks of one repository: > 0.5 s
def test_clean_filter_added_after_adoption_named_at_staged_check_and_hook_detected(
    tmp_path: Path,
) -> None:
    root = _adopted(tmp_path)
    git(root, "config", "filter.bump.clean", "sed s/return/yield/")
    git(root, "config", "filter.bump.smudge", "cat")
    with (root / ".gitattributes").open("a") as f:
        f.write("*.py filter=bump\n")
    git(root, "add", "--renormalize", "--", ".gitattributes", "m.py")
    assert [f["kind"] for f in findings(root)] == ["clean"]  # the working tree is clean
    (staged,) = _staged_details(root)
    hook = [r.finding.detail for r in judge_staged(root).items if r.finding.failed]
    for detail in (staged, *hook):
        assert "filter=bump" in detail and "git check-attr -a -- m.py" in detail, detail
    assert len(hook) == 1


def test_staged_edit_without_conversion_no_filter_clause_detected(tmp_path: Path) -> None:
    root = _adopted(tmp_path)
    write(root, "m.py", SOURCE.replace("1", "2"))
    git(root, "add", "m.py")
    (staged,) = _staged_details(root)
    assert "conversion" not in staged and "check-attr" not in staged


def _src_adopted_with_filter(tmp_path: Path) -> tuple[Path, Path]:
    """``m.py::total`` and ``src/m.py::total`` adopted and committed, the ``bump``
    clean filter configured; (the repository, its ``.git/info/attributes``)."""
    root = _adopted(tmp_path)
    write(root, "src/m.py", SOURCE)
    ok(root, "adopt", "src/m.py::total", "--words", "Signed off")
    commit_all(root, "adopt src")
    git(root, "config", "filter.bump.clean", "sed s/return/yield/")
    git(root, "config", "filter.bump.smudge", "cat")
    info = root / ".git" / "info" / "attributes"
    info.parent.mkdir(exist_ok=True)
    return root, info


@pytest.mark.slow  # a check, a paste and a check again: > 0.5 s
@pytest.mark.parametrize(
    ("clean", "kind"),
    [("sed s/return/yield/", "drifted"), ("sed s/def/xdef/", "unresolved")],
    ids=["drift", "syntax"],
)
def test_converted_staged_blob_routes_only_out_of_the_conversion_pasted_recovers(
    tmp_path: Path, clean: str, kind: str
) -> None:
    """The routes said "restore ground: forest restore … && git add", "adopt the
    change: forest supersede …" or "fix its syntax error": each acts on the working
    file, which git converts again as it stages it, so none could clear the finding.
    The one route takes the file out of the conversion; done as printed, the staged
    check is clean."""
    from tests.helpers.git import pasted

    root = _adopted(tmp_path)
    write(root, "src/m.py", SOURCE)  # a file below the top: its own .gitattributes
    ok(root, "adopt", "src/m.py::total", "--words", "Signed off")
    commit_all(root, "adopt src")
    git(root, "config", "filter.bump.clean", clean)
    git(root, "config", "filter.bump.smudge", "cat")
    (root / ".gitattributes").write_text("*.py filter=bump\n")
    git(root, "add", "--renormalize", "--", ".gitattributes", "m.py", "src/m.py")
    out = json.loads(forest(root, "check", "--staged", "--json").stdout)
    assert sorted(f["kind"] for f in out["findings"]) == [kind, kind]
    for finding in out["findings"]:
        (route,) = finding["routes"]
        assert "restore" not in route["command"] and "supersede" not in route["command"]
        folder = finding["path"].rpartition("/")[0]
        where = f"{folder}/.gitattributes" if folder else ".gitattributes"
        line = route["note"].split("`")[1]
        assert line == "/m.py -filter" and f"at the end of {where}," in route["note"]
        with (root / where).open("a") as f:
            f.write(line + "\n")
        assert pasted(root, route["command"]).returncode == 0
    assert json.loads(forest(root, "check", "--staged", "--json").stdout)["ok"]


def test_attribute_pattern_names_one_file_with_glob_characters_and_spaces_accepted(
    tmp_path: Path,
) -> None:
    """The line the route prints matches its one file: a glob character or a space in
    its name (which ends a pattern) matches itself alone."""
    from forest_files import gitio
    from forest_files.check.converted import attribute_pattern

    root = make_repo(tmp_path)
    names = ["a b.md", "a*b.md", "a[x].md", "q?.md", 's "q" *.md']
    lines = [f"{attribute_pattern(n)} -text\n" for n in names]
    (root / ".gitattributes").write_text("*.md text\n" + "".join(lines))
    others = ["aab.md", "ax.md", "qq.md", "s.md"]
    got = gitio.check_attr(root, "text", [*names, *others])
    assert [got[n] for n in names] == ["unset"] * len(names)
    assert [got[n] for n in others] == ["set"] * len(others)


@pytest.mark.slow  # a check, a paste and a check again: > 0.5 s
@pytest.mark.parametrize(
    "rules",
    ["*.py filter=bump\n", "[attr]bumped filter=bump\n*.py bumped\n"],
    ids=["filter", "macro"],
)
def test_converted_by_info_attributes_route_line_goes_there_pasted_recovers(
    tmp_path: Path, rules: str
) -> None:
    """A clean filter set in ``.git/info/attributes``, which outranks every
    ``.gitattributes``: the route's `/m.py -filter` line in ``src/.gitattributes``
    changed nothing, and the staged check printed the same route again. The route
    names that file and a line for its end, anchored from the top; done as printed,
    the staged check is clean. A rule of the same file for other paths alone leaves
    the ``.gitattributes`` route as it was."""
    from tests.helpers.git import pasted

    root, info = _src_adopted_with_filter(tmp_path)
    info.write_text(rules.replace("*.py", "/src/*.py") + "/docs/** filter=bump\n")
    (root / ".gitattributes").write_text("/m.py filter=bump\n")  # the top's m.py
    git(root, "add", "--renormalize", "--", ".gitattributes", "m.py", "src/m.py")
    out = json.loads(forest(root, "check", "--staged", "--json").stdout)
    routes = {f["path"]: f["routes"] for f in out["findings"]}
    assert sorted(routes) == ["m.py", "src/m.py"], out
    (top,) = routes["m.py"]  # the info file names no rule for it: .gitattributes works
    assert "info/attributes" not in top["note"] and "at the end of .gitattributes," in top["note"]
    (route,) = routes["src/m.py"]
    assert route["note"].startswith("a line of .git/info/attributes converts it"), route
    line = route["note"].split("`")[1]
    assert line == "/src/m.py -filter" and "at the end of .git/info/attributes," in route["note"]
    with info.open("a") as f:
        f.write(line + "\n")
    assert pasted(root, route["command"]).returncode == 0
    out = json.loads(forest(root, "check", "--staged", "--json").stdout)
    assert [f["path"] for f in out["findings"] if f["kind"] != "clean"] == ["m.py"], out


def test_info_rules_quoted_pattern_macro_and_other_paths_detected(tmp_path: Path) -> None:
    """Which lines of ``.git/info/attributes`` convert a file: git matches each pattern
    (a quoted one with a space, a macro standing for ``filter``); a line for other
    paths, or one naming no converting attribute, names none."""
    from forest_files.gitio import info_rules

    root = make_repo(tmp_path)
    info = root / ".git" / "info" / "attributes"
    info.parent.mkdir(exist_ok=True)
    info.write_text(
        '# a comment\n"/a b.py" filter=bump\n[attr]conv text\n/c.py conv\n'
        "/d.py diff=python\n/e.py -filter\n"
    )
    assert info_rules(root, "a b.py", ["filter"]) == ".git/info/attributes"
    assert info_rules(root, "c.py", ["text"]) == ".git/info/attributes"
    assert info_rules(root, "e.py", ["filter"]) == ".git/info/attributes"  # it decides
    assert [info_rules(root, p, ["filter"]) for p in ("a.py", "d.py", "c.py")] == [None] * 3
    assert info_rules(root, "a b.py", []) is None


@pytest.mark.slow  # a `forest` process typed in a subdirectory
def test_converted_note_names_the_rule_file_reached_from_a_subdirectory_detected(
    tmp_path: Path,
) -> None:
    """Typed in ``src/``, the route's note named ``.git/info/attributes`` and
    ``.gitattributes`` from the top, where the user does not stand: both are now
    reached from the subdirectory (``../.git/info/attributes``, ``../.gitattributes``),
    as the route's own ``git -C ..`` step is."""
    from tests.helpers.git import pasted

    root, info = _src_adopted_with_filter(tmp_path)
    info.write_text("/src/*.py filter=bump\n")
    (root / ".gitattributes").write_text("/m.py filter=bump\n")
    git(root, "add", "--renormalize", "--", ".gitattributes", "m.py", "src/m.py")
    proc = pasted(root / "src", "forest check --staged --json")
    notes = {f["path"]: f["routes"][0]["note"] for f in json.loads(proc.stdout)["findings"]}
    assert "at the end of ../.git/info/attributes," in notes["src/m.py"], notes
    assert notes["src/m.py"].startswith("a line of ../.git/info/attributes converts it")
    assert "at the end of ../.gitattributes," in notes["m.py"], notes
