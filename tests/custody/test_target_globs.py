"""A glob's matches named as selectors spell them (custody/target_globs.py): a ``#``
or ``@`` in a matched file's name is part of the name, never a separator.

Real repository: ``forest adopt '*.md'`` beside ``x#y.md`` aborted with "x: no
such file" (the match was read again as ``x`` + heading ``y.md``).
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli import forest
from tests.helpers.git import commit_all, make_repo, write


def test_glob_matching_names_with_hash_and_at_adopts_each_file_accepted(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    for name in ("x#y.md", "r@eg.md", "a.md"):
        write(repo, name, f"# {name}\n\ntext\n")
    commit_all(repo, "files")
    assert forest(repo, "init").exit_code == 0
    result = forest(repo, "adopt", "*.md", "--words", "w")
    assert result.exit_code == 0, result.output
    status = forest(repo, "status").stdout
    for shown in ("x\\#y.md", "r\\@eg.md", "a.md"):
        assert f"clean      {shown} " in status, status
    assert forest(repo, "check").exit_code == 0


def test_glob_matching_name_with_backslash_refused(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    write(repo, "a\\b.md", "# A\n\ntext\n")
    commit_all(repo, "files")
    assert forest(repo, "init").exit_code == 0
    result = forest(repo, "adopt", "*.md", "--words", "w")
    assert result.exit_code == 1
    assert "no selector can name it (the path contains a backslash)" in result.stderr


def test_glob_matching_name_with_newline_refusal_names_the_rename_pasted_accepted(
    tmp_path: Path,
) -> None:
    """The refusal said "rename it with git mv first" and showed the newline as a
    space (a name no command finds): it names the file escaped and the exact
    rename, which pasted lets the adopt through."""
    from tests.helpers.git import pasted

    repo = make_repo(tmp_path)
    write(repo, "docs/new\nline.md", "# A\n\ntext\n")
    commit_all(repo, "files")
    assert forest(repo, "init").exit_code == 0
    result = forest(repo, "adopt", "docs/*", "--words", "w")
    assert result.exit_code == 1
    assert "docs/new\\x0aline.md" in result.stderr, result.stderr
    (rename,) = [part for part in result.stderr.split("`") if " mv " in part]
    assert rename == "git mv -- docs/new$'\\012'line.md docs/new_line.md"
    assert pasted(repo, rename).returncode == 0
    assert forest(repo, "adopt", "docs/*", "--words", "w").exit_code == 0


def test_name_with_backslash_or_newline_typed_directly_refusal_names_the_rename_refused(
    tmp_path: Path,
) -> None:
    """Typed as it stands (no glob), such a file got "use '/' between directories"
    (a backslash) or the general selector help (a newline), with no rename: it gets
    the glob's refusal, the file named escaped and its rename as a command. A
    backslash path naming no file keeps the selector's own refusal."""
    repo = make_repo(tmp_path)
    write(repo, "docs/back\\slash.md", "# A\n\ntext\n")
    write(repo, "docs/new\nline.md", "# B\n\ntext\n")
    commit_all(repo, "files")
    assert forest(repo, "init").exit_code == 0
    renames = {
        "docs/back\\slash.md": "git --literal-pathspecs mv -- 'docs/back\\slash.md' "
        "docs/back_slash.md",
        "docs/back\\slash.md#A": "git --literal-pathspecs mv -- 'docs/back\\slash.md' "
        "docs/back_slash.md",
        "docs/new\nline.md": "git mv -- docs/new$'\\012'line.md docs/new_line.md",
    }
    for typed, rename in renames.items():
        result = forest(repo, "adopt", typed, "--words", "w")
        assert result.exit_code == 1, result.output
        assert "no selector can name it" in result.stderr, result.stderr
        assert "between directories" not in result.stderr, result.stderr
        assert [p for p in result.stderr.split("`") if " mv " in p] == [rename], result.stderr
    result = forest(repo, "adopt", "docs/none\\such.md", "--words", "w")
    assert result.exit_code != 0 and "between directories" in result.stderr, result.stderr
    assert not (repo / ".forest" / "ledger" / "segments").exists() or not any(
        (repo / ".forest" / "ledger" / "segments").iterdir()
    )
