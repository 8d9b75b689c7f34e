"""A guided tour of forest-files on a throwaway git repository.

Run it from a fresh clone after ``pip install .``:

    python examples/tour.py

It creates a temporary canon repository, puts one section under custody,
shows a silent edit caught by ``forest check`` and by the pre-commit hook,
then takes both routes out: restore, and supersede by an authority act.
Everything happens in a temp dir; nothing outside it is touched.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BIN = Path(sys.executable).parent
FOREST = str(BIN / "forest")
CANON = """# Canon

## Family

### Elias
Her brother. He left the village in winter.

### Mara
Her sister.
"""


def run(repo: Path, *args: str, check: bool = True) -> int:
    print(f"\n$ {' '.join(args)}")
    env = {**os.environ, "NO_COLOR": "1", "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(args, cwd=repo, env=env, text=True, capture_output=True)
    out = (done.stdout + done.stderr).rstrip()
    if out:
        print(out)
    if check and done.returncode != 0:
        raise SystemExit(f"tour step failed with exit {done.returncode}")
    print(f"[exit {done.returncode}]")
    return done.returncode


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="forest-tour-"))
    repo = tmp / "canon"
    repo.mkdir()
    try:
        run(repo, "git", "init", "-q", "-b", "main")
        run(repo, "git", "config", "user.name", "Ada Author")
        run(repo, "git", "config", "user.email", "ada@example.org")
        (repo / "characters.md").write_text(CANON, encoding="utf-8")
        print("\n# 1. Put the repository and one section under custody.")
        run(repo, FOREST, "init")
        run(repo, FOREST, "adopt", "characters.md#Elias", "--words", "Elias is canon as written")
        run(repo, FOREST, "hooks", "install")
        run(repo, "git", "add", "-A")
        run(repo, "git", "commit", "-q", "-m", "canon under custody")
        run(repo, FOREST, "status")

        print("\n# 2. A silent edit inside the section is caught — by check and by the hook.")
        text = CANON.replace("in winter", "in spring")
        (repo / "characters.md").write_text(text, encoding="utf-8")
        assert run(repo, FOREST, "check", "--show-diff", check=False) == 1
        run(repo, "git", "add", "characters.md")
        assert run(repo, "git", "commit", "-q", "-m", "quiet change", check=False) != 0

        print("\n# 3. Route one: restore ground (the edit is captured locally first).")
        run(repo, FOREST, "restore", "characters.md#Elias")
        run(repo, FOREST, "check")

        print("\n# 4. Route two: an authority-holder supersedes with new words.")
        (repo / "characters.md").write_text(text, encoding="utf-8")
        run(
            repo,
            FOREST,
            "supersede",
            "characters.md#Elias",
            "--words",
            "Spring, after the chapter 3 rewrite",
        )
        run(repo, "git", "add", "-A")
        run(repo, "git", "commit", "-q", "-m", "Elias leaves in spring")
        run(repo, FOREST, "log", "characters.md#Elias")
        run(repo, FOREST, "verify")
        print("\ntour complete: custody held, every change went through a recorded act")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
