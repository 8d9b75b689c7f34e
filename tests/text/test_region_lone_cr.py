"""A carriage return not followed by a line feed (a lone CR) in a bound file
(text/normalise.py): refused wherever the file is read, never read as a line end.

Real repository (Flyway-Sample-Pipelines, a region around the install steps of
InstallFlywayUnix.sh): one LF of the region turned into a CR made bash read
``echo "Downloading…"`` and ``curl … | tar xz`` as one line (the download never
ran), and ``forest check``, the pre-commit hook and ``forest ci`` were all clean:
forest read the CR as a line end, so the region hashed as adopted.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from forest_files.doors import hooks as githooks
from forest_files.text.normalise import SourceRefused, decode_bytes, normalised_hash
from tests.helpers.cli import forest
from tests.helpers.custody import adopted_repo
from tests.helpers.git import git, git_env

SCRIPT = (
    "#!/bin/bash\nset -e\n# forest:begin install\n"
    'echo "Downloading"\ncurl -sS https://example.org/tool.tgz | tar xz\n'
    "# forest:end install\n"
)
TARGET = "install.sh@install"


def test_lone_cr_refused_naming_offset_and_line() -> None:
    data = b"a\r\nb\rc\n"
    with pytest.raises(SourceRefused, match=r"s\.sh: a carriage return .* offset 4 \(line 2\)"):
        decode_bytes(data, "s.sh")
    assert normalised_hash(data) is None


def test_lone_cr_at_end_of_file_refused() -> None:
    with pytest.raises(SourceRefused, match="byte offset 3"):
        decode_bytes(b"abc\r", "s.sh")
    assert normalised_hash(b"abc\r") is None


def test_crlf_and_bom_still_read_accepted() -> None:
    assert decode_bytes(b"\xef\xbb\xbfa\r\nb\r\n", "s.sh") == "a\nb\n"
    assert normalised_hash(b"a\r\nb\r\n") == normalised_hash(b"a\nb\n")


def _attacked(tmp_path: Path) -> Path:
    repo = adopted_repo(tmp_path, "install.sh", SCRIPT, TARGET)
    data = (repo / "install.sh").read_bytes()
    (repo / "install.sh").write_bytes(data.replace(b'"Downloading"\ncurl', b'"Downloading"\rcurl'))
    return repo


def _unresolved_lone_cr(out: str) -> None:
    assert f"unresolved {TARGET}" in out, out
    assert "carriage return" in out and "(line 4)" in out, out


def test_lone_cr_in_region_check_hook_and_ci_detected(tmp_path: Path) -> None:
    repo = _attacked(tmp_path)
    result = forest(repo, "check")
    assert result.exit_code == 1, result.stdout
    _unresolved_lone_cr(result.stdout)
    githooks.install(repo)
    git(repo, "add", "-A")
    head = git(repo, "rev-parse", "HEAD")
    proc = subprocess.run(
        ["git", "commit", "-q", "-m", "one line"],
        cwd=repo,
        env={**os.environ, **git_env()},
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode != 0, proc.stdout + proc.stderr
    _unresolved_lone_cr(proc.stderr)
    assert git(repo, "rev-parse", "HEAD") == head
    git(repo, "branch", "base")
    git(repo, "commit", "-q", "--no-verify", "-m", "one line")
    result = forest(repo, "ci", "--base", "base", "--format", "json")
    assert result.exit_code == 1, result.stdout
    found = [f for f in json.loads(result.stdout)["findings"] if f["kind"] != "clean"]
    assert [(f["kind"], f["selector"]) for f in found] == [("unresolved", TARGET)]
    _unresolved_lone_cr(f"unresolved {TARGET} {found[0]['detail']}")


def test_lone_cr_judged_by_caches_of_the_old_reading_detected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A clone upgraded from the reading that took a lone CR for a line end keeps what
    it computed then (blob hashes, located sections: custody/statcache.py, format 7).
    Real repository: the hook judged a staged attack it had seen before by them, clean,
    while ``forest check`` and ``forest ci`` in a fresh clone found it."""
    from forest_files.custody import statcache
    from forest_files.kernel import cache
    from forest_files.kernel.paths import CACHE_DIR
    from forest_files.kernel.state import worktree_dir
    from forest_files.text import normalise

    repo = _attacked(tmp_path)
    git(repo, "add", "-A")
    with monkeypatch.context() as old:  # the reading before: a lone CR ends a line
        old.setattr(normalise, "_lone_cr", lambda data: -1)
        assert forest(repo, "check", "--staged").exit_code == 0
    folder = worktree_dir(repo) / CACHE_DIR
    for name in (statcache.STAT_NAME, statcache.PARSE_NAME, statcache.BLOBS_NAME):
        path = folder / name
        if path.exists():  # as the release before this reading wrote it
            doc = cache.decode(str(path), name, path.read_bytes())
            assert isinstance(doc, tuple)
            assert cache.write(path, name, (7, doc[1]))
    result = forest(repo, "check", "--staged")
    assert result.exit_code == 1, result.stdout
    _unresolved_lone_cr(result.stdout)
