"""The tour's steps, in order: each narrated in one line, then its commands, run for real.

Stores: the tour repository's files, ledger and commits (through the commands).
Refuses: nothing itself; a command that answers unexpectedly ends the tour
(session.py).
Returns: ``STEPS``, the ordered ``(narration, step)`` pairs ``run_tour`` walks.
Test: tests/doors/test_tour.py

To add a step, write a function of the ``Session`` and append it to ``STEPS``
with its one-line narration; a step leaves the repository as the next expects
(the last steps leave branch ``quiet-edit`` checked out, its drift committed
with ``--no-verify``, ``main`` clean and pushed, and nothing running). The repository is
``canon/`` inside the tour's workspace (``Session.work``), so a step may keep a
sibling there, named relatively from the repository: the server-side hook's
step pushes to a bare ``../shared.git`` beside it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from forest_files.doors.tour.session import AUTHOR, AUTHOR_EMAIL, Session, TourStepFailed

CANON = """# Canon

## Family

### Elias
Her brother. He left the village in winter.

### Mara
Her sister. She keeps the lighthouse.
"""
ELIAS = "characters.md#Elias"
PROPOSAL_WAIT = 30.0  # seconds the watcher may take to record its proposal


def adopt(s: Session) -> None:
    s.run("git", "init", "-q", "-b", "main")
    s.run("git", "config", "user.name", AUTHOR)
    s.run("git", "config", "user.email", AUTHOR_EMAIL)
    s.write("characters.md", CANON)
    s.run("forest", "init")
    s.run("forest", "adopt", ELIAS, "--words", "Elias is canon as written")
    s.run("git", "add", "-A")
    s.run("git", "commit", "-q", "-m", "Canon under custody")
    s.run("forest", "status")


def check(s: Session) -> None:
    s.edit("characters.md", "in winter", "in spring")
    s.run("forest", "check", expect=1)


def refused_commit(s: Session) -> None:
    s.run("forest", "hooks", "install")
    s.run("git", "add", "characters.md")
    s.run("git", "commit", "-q", "-m", "Elias leaves in spring", expect=1)


def restore(s: Session) -> None:
    s.run("forest", "restore", ELIAS)
    s.run("git", "add", "--", "characters.md")
    s.run("forest", "check")


def supersede(s: Session) -> None:
    s.edit("characters.md", "in winter", "in spring")
    s.run("forest", "supersede", ELIAS, "--words", "Spring, after the chapter 3 rewrite")
    s.run("git", "add", "--", ".forest/ledger", "characters.md")
    s.run("git", "commit", "-q", "-m", "Elias leaves in spring")
    s.run("forest", "log", ELIAS)


def watch(s: Session) -> None:
    s.run("forest", "watch", "--detach")
    s.watching = True
    s.edit("characters.md", "in spring", "in spring, by the coast road")
    _await_proposal(s)
    s.run("forest", "watch", "status")
    s.run("forest", "watch", "stop")
    s.watching = False
    s.run("forest", "proposals")


def adopt_proposal(s: Session) -> None:
    pid = _open_proposal(s)
    if pid is None:
        raise TourStepFailed("tour: the watcher's proposal is no longer open")
    s.run("forest", "proposal", "show", pid)
    s.run("forest", "proposal", "adopt", pid, "--words", "The coast road, as the watcher kept it")
    s.run("git", "add", "--", ".forest/ledger", "characters.md")
    s.run("git", "commit", "-q", "-m", "Elias takes the coast road")


def ci(s: Session) -> None:
    s.run("git", "switch", "-q", "-c", "quiet-edit")
    s.edit("characters.md", "Her brother.", "Her younger brother.")
    s.run("git", "commit", "-q", "--no-verify", "-am", "A quiet edit, past the hook")
    s.run("forest", "ci", "--base", "main", expect=1)


def server_hook(s: Session) -> None:
    s.run("git", "init", "-q", "--bare", "-b", "main", "../shared.git")
    s.run("forest", "hooks", "install", "--server", "--repo", "../shared.git")
    s.run("git", "push", "-q", "../shared.git", "main")
    s.run("git", "push", "-q", "../shared.git", "quiet-edit", expect=1)


def _open_proposal(s: Session) -> str | None:
    listed = json.loads(s.run("forest", "proposals", "--json", show=False) or "[]")
    return next((str(p["id"]) for p in listed if p.get("status") == "open"), None)


def _await_proposal(s: Session) -> None:
    """Wait (bounded) until the watcher has recorded the edit as a proposal."""
    deadline = time.monotonic() + PROPOSAL_WAIT
    while _open_proposal(s) is None:
        if time.monotonic() > deadline:
            raise TourStepFailed(
                f"tour: the watcher recorded no proposal in {PROPOSAL_WAIT:.0f} s; "
                "see .git/forest/watch.log (forest tour --keep DIR keeps it)"
            )
        time.sleep(0.2)


Step = Callable[[Session], None]
STEPS: tuple[tuple[str, Step], ...] = (
    ("Adopt: put one section of a Markdown canon under custody, with your words.", adopt),
    ("A silent edit of the bound section: `forest check` catches it.", check),
    ("The pre-commit hook refuses to commit it, and prints both ways out.", refused_commit),
    ("Way out one: restore the ground text (the edit is kept under .git/forest).", restore),
    ("Way out two: supersede, adopting the new text as ground with your words.", supersede),
    ("The watcher catches an edit when it is saved and keeps it as a proposal.", watch),
    ("Review, without a terminal: adopt the proposal with words.", adopt_proposal),
    ("`forest ci` fails a branch whose drift was committed with --no-verify.", ci),
    (
        "The server's hook: main lands in a shared repository, the same branch is refused.",
        server_hook,
    ),
)
