"""``forest adopt`` and the options the custody commands share (custody_cmds.py has
diff, supersede, restore; custody_rebind_cmds.py rebind, retire; entry_cmd.py show;
check_cmds.py has check and status).

Stores: nothing itself.
Refuses: nothing itself (``errors.boundary`` maps exceptions to exit codes).
Returns: text, or one JSON document with ``--json`` (paths and content ids,
never section text); on stderr, one warning line per adopted section that reads
link or footnote definitions from outside its hash (check/adopt_refs.py; in JSON
the binding's ``warning``).
Test: tests/doors/test_cli_files.py, tests/check/test_adopt_refs.py
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from forest_files.doors.cli.errors import boundary
from forest_files.doors.cli.normalise_cmds import NormaliseOpt, with_normalise
from forest_files.doors.cli.options import AsOpt, JsonOpt, RepoOpt, WordsOpt, app, identity

if TYPE_CHECKING:
    from forest_files.custody.record import SectionText
    from forest_files.custody.repository import Repository

ExcludeOpt = Annotated[
    list[str] | None,
    typer.Option("--exclude", help="Leave out '#Sub' or 'meta:key' (repeatable)."),
]


TargetsArg = Annotated[
    list[str], typer.Argument(help="PATH, PATH#Heading/Sub, PATH::Sym, PATH@region or a glob.")
]
PathsArg = Annotated[list[str] | None, typer.Argument(help="Only bindings under these paths.")]
StagedOpt = Annotated[
    bool, typer.Option("--staged", help="Judge the git index against the staged ledger.")
]
RevOpt = Annotated[str | None, typer.Option("--rev", help="Judge a commit against its own ledger.")]
ShowDiffOpt = Annotated[bool, typer.Option("--show-diff", help="Print ground -> now diffs.")]
WhereOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--where",
        metavar="KEY=VALUE",
        help="Only files whose front matter KEY is VALUE (a,b: one of), as [require] when; "
        "repeatable, all must hold.",
    ),
]
HeadingsOpt = Annotated[
    bool, typer.Option("--headings", help="Bind every heading of the files named, in one segment.")
]
LevelOpt = Annotated[
    int | None, typer.Option("--level", help="With --headings: only headings of this level (1-6).")
]
UnboundOpt = Annotated[
    bool,
    typer.Option(
        "--unbound", help="Adopt what forest.toml's [require] reports unbound (under PATHs given)."
    ),
]
YesOpt = Annotated[
    bool, typer.Option("--yes", "-y", help="Adopt a listed bulk selection without asking.")
]


@app.command()
@boundary
def adopt(
    targets: Annotated[
        list[str] | None,
        typer.Argument(help="PATH, PATH#Heading/Sub, PATH::Sym, PATH@region or a glob."),
    ] = None,
    *,
    words: WordsOpt,
    as_: AsOpt = None,
    exclude: ExcludeOpt = None,
    normalise: NormaliseOpt = None,
    repo: RepoOpt = Path("."),
    as_json: JsonOpt = False,
    skip_bound: Annotated[
        bool,
        typer.Option(
            "--skip-bound", help="Adopt only targets not bound yet (re-run a glob for new files)."
        ),
    ] = False,
    where: WhereOpt = None,
    headings: HeadingsOpt = False,
    level: LevelOpt = None,
    unbound: UnboundOpt = False,
    yes: YesOpt = False,
) -> None:
    """Take file sections into custody: import, root and bind, in one ledger segment.
    --where keeps files whose front matter says so; --headings binds every heading of
    the files, --unbound what [require] reports (both list the sections and ask once).
    --normalise NAME declares a normalisation the binding reads its section with.

    Example: forest adopt 'docs/adr/*.md' --where status=accepted --words "Accepted ADRs"
    """
    from forest_files.check.adopt_refs import unheld as outside_refs
    from forest_files.custody.record import adopt_sections, unbound_only
    from forest_files.custody.repository import Repository
    from forest_files.doors.cli.adopt_bulk import choose, confirm
    from forest_files.doors.cli.commit_step import commit_step
    from forest_files.kernel.shellword import for_bash, printable

    rules = with_normalise(exclude, normalise)  # exclusions, then normalise:NAME@V items
    with Repository(repo) as r:
        chosen = choose(
            r,
            targets or [],
            where=where or [],
            headings=headings,
            level=level,
            unbound=unbound,
            excludes=exclude or [],
        )
        sections = _read(r, chosen.specs, rules, chosen.used)
        skipped = 0
        if skip_bound:
            sections, skipped = unbound_only(r, sections)
        elif len(sections) > 1:
            _refuse_some_bound(sections, unbound_only(r, sections)[0])
        listed = [s.selector for s in sections]
        if chosen.ask and sections and confirm(listed, yes, err=as_json):
            sections = _read(r, listed, rules, chosen.used)  # as held after the answer
        bound = adopt_sections(r, sections, words=words, by=identity(repo, as_)) if sections else []
        step = commit_step(r.root, [s.path for s in sections]) if bound and not as_json else ""
        unheld = {u.selector: u.warning() for u in outside_refs(r, sections)} if bound else {}
    for line in unheld.values():  # a warning: nothing refused, the exit code kept
        typer.echo(for_bash(line), err=True)
    if as_json:
        typer.echo(json.dumps([{**asdict(b), **_warned(unheld, b.selector)} for b in bound]))
        return
    lines = [f"left out {p} (its front matter fails --where)" for p in chosen.left_out]
    lines += [f"bound {b.selector} -> {b.content_id}" for b in bound]
    if skip_bound:
        lines.append(f"skipped {skipped} target(s) already bound")
    if not bound:
        lines.append("nothing new to adopt")
    # a heading's control characters shown escaped (kernel/shellword.py); the step is
    # quoted for a shell already
    typer.echo("\n".join(map(printable, lines)))
    if bound:
        typer.echo(step)


def _warned(unheld: dict[str, str], selector: str) -> dict[str, str]:
    """A bound section's JSON ``warning`` (the line printed on stderr), when it has one."""
    line = unheld.get(selector)
    return {"warning": line.removeprefix("forest: ")} if line is not None else {}


def _refuse_some_bound(named: list[SectionText], fresh: list[SectionText]) -> None:
    """A bulk adoption naming sections already bound: refused before anything is read
    again or written, saying how to take in only the others (``--skip-bound``) as well
    as how to change one that is bound (the store's own refusal names only that)."""
    if len(fresh) == len(named):
        return
    from forest_files.kernel.errors import ForestError
    from forest_files.kernel.shellword import command_text, forest_step

    taken = {s.selector for s in fresh}
    bound = [s.selector for s in named if s.selector not in taken]
    change = command_text(forest_step("supersede", bound[0], options=("--words", "…")))
    first = f"{bound[0]}{', …' if len(bound) > 1 else ''}"
    if not fresh:  # nothing else to take in: only a change of a bound one is left
        raise ForestError(
            f"all {len(named)} sections named are already bound ({first}); nothing was "
            f"adopted — change a bound one with `{change}`"
        )
    are = "is" if len(bound) == 1 else "are"
    raise ForestError(
        f"{len(bound)} of the {len(named)} sections named {are} already bound ({first}); "
        f"nothing was adopted — add --skip-bound to adopt only the others, or change a "
        f"bound one with `{change}`"
    )


def _read(
    r: Repository, specs: list[str], excludes: tuple[str, ...], used: frozenset[str]
) -> list[SectionText]:
    """The sections ``specs`` name, with a progress bar on a terminal for many;
    ``used``: exclusions ``--headings`` used already (not refused for matching
    nothing inside the sections)."""
    from forest_files.custody.bindconf import bind_defaults
    from forest_files.custody.targets import read_sections

    with typer.progressbar(
        length=len(specs),
        label="reading",
        file=sys.stderr,
        hidden=len(specs) < 50 or not sys.stderr.isatty(),
    ) as bar:
        return read_sections(
            r.root,
            specs,
            excludes,
            max_bytes=r.config.max_body_bytes,
            progress=bar.update,
            defaults=bind_defaults(r.config.bind),
            matched=used,
        )
