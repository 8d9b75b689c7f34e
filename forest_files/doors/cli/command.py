"""What every registered ``forest`` command gets by being registered: a whole-sentence
summary, ``-q``/``-v``, and a broken ``forest.toml`` refused before it runs.

``finish(app)`` (called once by the package, after every command module has
registered its commands) gives each command and sub-group of the typer tree the
click classes below, so a command added later (``forest seal``, ``forest adr …``)
inherits all three without a line of its own:

* its summary in a listing is the first sentence of its help, never cut (click's
  own cuts at 45 columns, mid-sentence); its ``Example:`` one line, never rewrapped;
* ``-q``/``--quiet``: standard output keeps only the verdict (the report's last line);
  errors stay on stderr, machine output (``--json``, ``--format`` other than text)
  is untouched, and no progress is drawn (kernel/progress.py); ``-v``/``--verbose``:
  the package's log records on stderr (but a line the command printed on stdout too)
  and the time the command took. A spelling a
  command already uses keeps its meaning (``check -v`` lists clean bindings,
  ``watch --quiet S`` is its settling time; there ``-q`` is the quiet flag);
* before the command runs, a ``forest.toml`` that is there but unusable (not TOML,
  nested too deeply, wrong types, a directory, unreadable, too big) is one
  ``forest:`` line with the fix, exit 2, nothing written (custody/config.py).

Stores: nothing.
Refuses: an unusable forest.toml (ConfigBroken, exit 2) before any command body runs.
Returns: ``finish``, ``summary``, ``examples_kept``, ``ForestCommand``, ``ForestGroup``.
Test: tests/doors/test_cli_voice.py, tests/doors/test_bad_input.py
"""

from __future__ import annotations

import functools
import io
import os
import re
import sys
import time
from typing import Annotated, Any

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup
from typer.models import CommandInfo

from forest_files.kernel import verbosity

_SENTENCE = re.compile(r"(.+?[.!?])(?=\s+[A-Z`(]|\s*$)", re.DOTALL)
_MACHINE_FORMATS = ("json", "sarif", "junit", "github")
# Commands that judge forest.toml themselves and must still answer: ``forest ci``
# turns a broken one into a finding in every format (gate/ci.py); ``forest watch
# status`` and ``stop`` report or end a watcher that is failing on it.
# ``watch`` itself: its group runs before ``watch status``/``stop`` (which must reach a
# running watcher whatever forest.toml holds now); ``forest watch`` reads it itself.
REPORTS_CONFIG = frozenset({"ci", "watch", "watch status", "watch stop"})


def summary(help_text: str | None) -> str | None:
    """The first sentence of ``help_text``'s first paragraph, on one line."""
    if not help_text:
        return None
    first = " ".join(help_text.strip().split("\n\n", 1)[0].split())
    found = _SENTENCE.match(first)
    return found.group(1) if found else first


def examples_kept(help_text: str | None) -> str | None:
    """``help_text`` with its ``Example:`` in a paragraph of its own that click prints
    as written (``\\b``), on one line: rewrapped with its paragraph at the terminal's
    width, an example was cut mid-word (``bash-`` / ``completion/completions/forest``)
    and its second line, pasted, ran as a command of its own."""
    if not help_text or "Example: " not in help_text:
        return help_text
    paragraphs = []
    for paragraph in help_text.split("\n\n"):
        before, found, example = paragraph.partition("Example: ")
        if not found:
            paragraphs.append(paragraph)
            continue
        if before.strip():
            paragraphs.append(before.rstrip())
        one_line = " ".join(line.strip() for line in example.splitlines())
        paragraphs.append(f"\b\nExample: {one_line}")
    return "\n\n".join(paragraphs)


def _voice_options(taken: set[str]) -> list[Any]:
    """``-q/--quiet`` and ``-v/--verbose``, each spelling not already ``taken``."""
    quiet = tuple(f for f in ("-q", "--quiet") if f not in taken)
    loud = tuple(f for f in ("-v", "--verbose") if f not in taken)
    return list(_built(quiet, loud))


@functools.cache
def _built(quiet: tuple[str, ...], loud: tuple[str, ...]) -> tuple[Any, ...]:
    """The two flags as typer makes them (whichever click it builds on), each
    recorded in ``ctx.meta`` by ``_voice`` and never passed to the command."""
    say_less = "Say less: errors and the verdict line only."
    say_more = "Say more: details and timing on stderr."

    def flags(forest_quiet=False, forest_verbose=False):  # type: ignore[no-untyped-def]  # typer reads the annotations set below
        """Never run: typer reads its parameters."""

    flags.__annotations__ = {
        "forest_quiet": Annotated[bool, typer.Option(*quiet, help=say_less)],
        "forest_verbose": Annotated[bool, typer.Option(*loud, help=say_more)],
        "return": None,
    }

    built = typer.main.get_command_from_info(
        CommandInfo(callback=flags), pretty_exceptions_short=True, rich_markup_mode=None
    )
    kept = [
        p
        for p in built.params
        if (p.name == "forest_quiet" and quiet) or (p.name == "forest_verbose" and loud)
    ]
    for param in kept:
        param.expose_value = False
        param.callback = _voice
    return tuple(kept)


def _voice(ctx: Any, param: Any, value: bool) -> None:
    if value:
        ctx.meta[param.name or ""] = True


class _Forest:
    """The shared behaviour of ForestCommand and ForestGroup (a click mixin)."""

    params: list[Any]
    help: str | None
    short_help: str | None

    def _forest_setup(self) -> None:
        if not self.short_help:
            self.short_help = summary(self.help)
        self.help = examples_kept(self.help)
        taken = {o for p in self.params for o in getattr(p, "opts", ())}
        taken |= {o for p in self.params for o in getattr(p, "secondary_opts", ())}
        self.params.extend(_voice_options(taken))

    def _forest_invoke(self, ctx: Any, run: Any) -> Any:
        quiet = bool(ctx.meta.get("forest_quiet"))
        loud = bool(ctx.meta.get("forest_verbose"))
        if quiet or loud:
            verbosity.set_level(verbosity.QUIET if quiet else verbosity.VERBOSE)
        if loud:
            _log_to_stderr()
        _refuse_broken_config(ctx)
        started = time.monotonic()
        try:
            if quiet and not _machine(ctx.params) and not isinstance(sys.stdout, _VerdictOnly):
                return _verdict_only(run)
            return run()
        finally:
            if loud:
                took = time.monotonic() - started
                typer.echo(f"forest: {ctx.command_path} took {took:.2f} s", err=True)


class ForestCommand(_Forest, TyperCommand):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._forest_setup()

    def invoke(self, ctx: Any) -> Any:
        return self._forest_invoke(ctx, lambda: TyperCommand.invoke(self, ctx))


class ForestGroup(_Forest, TyperGroup):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._forest_setup()

    def invoke(self, ctx: Any) -> Any:
        return self._forest_invoke(ctx, lambda: TyperGroup.invoke(self, ctx))


def _machine(params: dict[str, Any]) -> bool:
    """Machine output is never cut by ``-q``."""
    fmt = params.get("fmt")
    return bool(params.get("as_json")) or str(getattr(fmt, "value", fmt)) in _MACHINE_FORMATS


class _VerdictOnly(io.StringIO):
    """Standard output held back under ``-q``; its last line is the verdict."""


def _verdict_only(run: Any) -> Any:
    real = sys.stdout
    held = _VerdictOnly()
    sys.stdout = held
    try:
        return run()
    finally:
        sys.stdout = real
        lines = [line for line in held.getvalue().splitlines() if line.strip()]
        if lines:
            real.write(lines[-1] + "\n")


def _log_to_stderr() -> None:
    import logging

    logger = logging.getLogger("forest_files")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("forest: %(name)s: %(message)s"))
        handler.addFilter(lambda record: not getattr(record, verbosity.SAID, False))
        logger.addHandler(handler)
    logger.setLevel(logging.INFO)


def _refuse_broken_config(ctx: Any) -> None:
    """An unusable forest.toml of the repository the command is pointed at, refused
    inside the one error boundary before the command runs (exit 2). A missing one is
    the command's to refuse (before ``forest init``, in its words); outside git,
    nothing is read."""
    repo = ctx.params.get("repo")
    if repo is None or " ".join(ctx.command_path.split()[1:]) in REPORTS_CONFIG:
        from forest_files.kernel.standing import stand_at

        stand_at(None)  # where the user stands is not known here: paths as they are
        return
    from forest_files.doors.boundary import run_guarded

    code = run_guarded(ctx.command_path, lambda: _read_config(repo), sys.argv, repo=repo)
    if code:
        raise typer.Exit(code)


def _read_config(repo: Any) -> None:
    from forest_files.custody.config import CONFIG_NAME, load_config
    from forest_files.gitio import toplevel
    from forest_files.kernel.errors import ForestError
    from forest_files.kernel.standing import stand_at

    try:
        root = toplevel(repo)
    except ForestError:
        stand_at(None)
        return
    # the git steps a command prints run from the top, pasted anywhere (reached by an
    # absolute path when --repo was typed as one)
    stand_at(root, absolute=os.path.isabs(repo))
    config = root / CONFIG_NAME
    if config.exists() or config.is_symlink():
        load_config(config)


def finish(app: typer.Typer) -> None:
    """Give every command and sub-group of ``app`` (recursively) the classes above and
    a sub-group its one-sentence summary; idempotent."""
    for info in app.registered_commands:
        if info.cls in (None, TyperCommand):
            info.cls = ForestCommand
    for group in app.registered_groups:
        sub = group.typer_instance
        if sub is None:
            continue
        if sub.info.cls in (None, TyperGroup) or not isinstance(sub.info.cls, type):
            sub.info.cls = ForestGroup
        text = sub.info.help if isinstance(sub.info.help, str) else None
        if isinstance(text, str) and not isinstance(group.short_help, str):
            group.short_help = summary(text)
        finish(sub)
