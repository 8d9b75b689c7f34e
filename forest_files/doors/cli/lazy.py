"""The ``forest`` click group with only the command being run fully built.

typer turns every command's signature into click parameters when it builds the
group: for 22 top-level commands that was about a third of ``forest --help``
(signatures read, string annotations evaluated, options made). Here the group lists each
command from a stand-in that carries only its name, help and flags, and the
command that is run (``forest adopt …``, ``forest adopt --help``) is built from
its real definition when click resolves it. The listing, usage errors and every
command's own help are what the eagerly built group prints
(tests/doors/test_cli_lazy.py compares them).

Stores: nothing. Refuses: nothing itself.
Returns: ``command(app)``, the click group the console script runs.
Test: tests/doors/test_cli_lazy.py
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from typing import Any

import typer
from typer.core import TyperGroup
from typer.main import get_command, get_command_from_info, get_command_name
from typer.models import CommandInfo


class LazyGroup(TyperGroup):
    """A group whose commands are stand-ins until one is resolved to be run."""

    real: dict[str, CommandInfo]
    build: Callable[[CommandInfo], Any]

    def resolve_command(self, ctx: Any, args: list[str]) -> tuple[Any, Any, list[str]]:
        name, cmd, rest = super().resolve_command(ctx, args)
        info = self.real.pop(name, None) if name is not None else None
        if name is not None and info is not None:
            cmd = self.build(info)
            self.commands[name] = cmd
        return name, cmd, rest


def _name(info: CommandInfo) -> str:
    assert info.callback is not None
    return info.name or get_command_name(info.callback.__name__)


def _stand_in(info: CommandInfo) -> CommandInfo:
    """``info`` with a callback of no parameters and the same name and help."""
    assert info.callback is not None

    def listed() -> None:  # never run: resolve_command swaps in the real command
        raise AssertionError("a stand-in command was invoked")

    listed.__doc__ = info.callback.__doc__
    stand_in = copy.copy(info)
    stand_in.name = _name(info)
    stand_in.callback = listed
    return stand_in


def command(app: typer.Typer) -> Any:
    """The click group of ``app``, its top-level commands built on first use."""
    listing = copy.copy(app)
    listing.info = copy.copy(app.info)
    listing.info.cls = LazyGroup
    listing.registered_commands = [_stand_in(info) for info in app.registered_commands]
    lazy = get_command(listing)
    assert isinstance(lazy, LazyGroup)
    lazy.real = {_name(info): info for info in app.registered_commands}
    lazy.build = functools.partial(
        get_command_from_info,
        pretty_exceptions_short=app.pretty_exceptions_short,
        rich_markup_mode=app.rich_markup_mode,
    )
    return lazy
