"""The ticketed walk: open, around, step, read, and the interim move.

Stores: tickets in process memory (per store instance, never durable), and
wild reads as pending cites for the next pair. ``move(deeper=…)`` may write a
nested extract entry.
Refuses: forged, unknown or spent tickets, a ticket at another position,
steps without ``around`` or to undisclosed routes, unknown or sealed
positions and destinations (a seal after ``open``/``around`` is honoured);
``open`` of another scope's id (``ScopeMismatch``) or of an unknown one
(``NotFound``); a ``step`` direction that is not a str (store/args.py: 0.4 raised
``TypeError``), a ``step``/``move`` signature that is not a str or None and a
``move(shallower=…)`` that is not a bool or None (0.4 accepted any value, and took
``shallower="no"`` for True). Neighbours of another scope are never disclosed.
Returns: ``Trail`` handles, around scraps with routes, read packets.
Test: tests/store/test_store_hostile.py
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from forest_files.kernel.errors import ForestError, NotFound
from forest_files.kernel.vocab import SCROLL_DIRECTIONS
from forest_files.store import args, queries
from forest_files.store.base import StoreBase
from forest_files.store.connection import guarded
from forest_files.store.lookup import check_id
from forest_files.store.packets import DEFAULT_EXCERPT, check_excerpt_len, scrap


@dataclass
class Trail:
    """A position and the opaque ticket that proves it was reached lawfully."""

    position: int
    ticket: str


@dataclass
class TicketState:
    position: int
    disclosed: set[tuple[int, str]] = field(default_factory=set)
    spent: bool = False


def direction_of(kind: str, here_is_from: bool) -> str:
    if kind == "responds_to":
        return "prev" if here_is_from else "next"
    return "out" if here_is_from else "in"


class WalkMixin(StoreBase):
    _tickets: dict[str, TicketState]
    _pending_wild_access: set[int]

    def _mint(self, position: int) -> Trail:
        ticket = secrets.token_urlsafe(16)
        self._tickets[ticket] = TicketState(position=position)
        return Trail(position=position, ticket=ticket)

    def _validate(self, trail: object) -> TicketState:
        if not isinstance(trail, Trail) or not trail.ticket:
            raise ForestError("walk: unknown or forged ticket refused")
        state = self._tickets.get(trail.ticket)
        if state is None:
            raise ForestError("walk: unknown or forged ticket refused")
        if state.spent:
            raise ForestError("walk: spent ticket refused")
        if state.position != trail.position:
            raise ForestError("walk: ticket/position mismatch")
        return state

    def _spend_and_mint(self, state: TicketState, position: int) -> Trail:
        state.spent = True
        return self._mint(position)

    def _refuse_sealed(self, entry_id: int, what: str) -> None:
        if self._sealed(entry_id):
            raise ForestError(f"{what}: entry {entry_id} is sealed")

    @guarded
    def open(self, handle: int) -> Trail:
        self.require(handle, "open")
        if self._sealed(handle):
            raise ForestError(f"open: entry {handle} is sealed")
        return self._mint(handle)

    @guarded
    def around(self, trail: Trail, *, excerpt_len: int = DEFAULT_EXCERPT) -> list[dict[str, Any]]:
        """Disclose the neighbours of the current position (previews + routes)."""
        state = self._validate(trail)
        check_excerpt_len(excerpt_len)
        here = trail.position
        if self._visible(here) is None:
            raise NotFound(f"around: unknown position {here}")
        self._refuse_sealed(here, "around: position")
        routes: dict[int, set[tuple[str, str]]] = {}
        for edge in self.conn.execute(queries.EDGES_TOUCHING, (here, here)):
            src, dst, kind = edge[0], edge[1], edge[2]
            if src == dst:
                continue
            other = dst if src == here else src
            routes.setdefault(other, set()).add((kind, direction_of(kind, src == here)))
        out: list[dict[str, Any]] = []
        for other in sorted(routes):
            row = self._visible(other)  # an edge into another scope leads nowhere
            if row is None or self._sealed(other):
                continue
            item = scrap(row, excerpt_len)
            item["routes"] = [{"direction": d, "relation": k} for k, d in sorted(routes[other])]
            for _, direction in routes[other]:
                state.disclosed.add((other, direction))
            out.append(item)
        return out

    @guarded
    def step(
        self, trail: Trail, direction: str, *, target: int | None = None, signature: str = "system"
    ) -> Trail:
        """Cross exactly one disclosed boundary; spends the ticket, mints a new one."""
        state = self._validate(trail)
        args.name("step", "direction", direction, SCROLL_DIRECTIONS)
        args.text("step", "signature", signature, "'system'", optional=True)  # 0.4 ignores it
        if direction not in SCROLL_DIRECTIONS:
            raise ForestError("step: direction must be in|out|next|prev")
        if direction == "in" and target is None:
            raise ForestError("step: inward requires target (name one destination from around)")
        matching = sorted(i for i, d in state.disclosed if d == direction)
        if not state.disclosed:
            raise ForestError("step: no disclosed routes — call around() before step")
        here = trail.position
        if target is not None:
            if target not in matching:
                hint = " (disclose via around first)" if direction == "in" else ""
                raise ForestError(
                    f"step: target {target} not reachable with direction "
                    f"{direction!r} from {here}{hint}"
                )
            destination = target
        elif not matching:
            raise ForestError(f"step: no {direction!r} neighbor from {here}")
        elif len(matching) > 1:
            raise ForestError(
                f"step: ambiguous {direction!r} (multiple neighbors {matching}); specify target"
            )
        else:
            destination = matching[0]
        if self._visible(destination) is None:
            raise NotFound(f"step: unknown entry {destination}")
        self._refuse_sealed(destination, "step")
        return self._spend_and_mint(state, destination)

    @guarded
    def read(self, trail: Trail) -> dict[str, Any]:
        """The full body of the current position; a wild read pends a cite."""
        self._validate(trail)
        row = self._visible(trail.position)
        if row is None:
            raise NotFound(f"read: unknown position {trail.position}")
        if self._sealed(trail.position):
            raise ForestError(f"read: entry {trail.position} is sealed")
        if row["jurisdiction"] == "wild":
            self._pending_wild_access.add(int(row["id"]))
        return {
            "jurisdiction": row["jurisdiction"],
            "id": row["id"],
            "body": row["body"],
            "bucket": row["bucket"],
            "signature": row["signature"],
            "source": row["source"],
        }

    @guarded
    def move(
        self,
        trail: Trail,
        *,
        neighbor_id: int | None = None,
        deeper: tuple[int, int] | None = None,
        shallower: bool = False,
        signature: str = "system",
    ) -> Trail:
        """Interim walk (prefer around + step): a neighbour, a nested extract, a parent."""
        state = self._validate(trail)
        # None as the signature is left to the nest's write ("unsigned insert"), as in 0.4.
        args.text("move", "signature", signature, "'system'", optional=True)
        chosen = [
            neighbor_id is not None,
            deeper is not None,
            args.flag("move", "shallower", shallower),
        ]
        if sum(chosen) != 1:
            raise ForestError("move: specify exactly one of neighbor_id, deeper, shallower")
        here = trail.position
        parent = self._visible(here)
        if parent is None:
            raise NotFound(f"move: unknown position {here}")
        self._refuse_sealed(here, "move: position")
        if neighbor_id is not None:
            destination = self._neighbour(here, neighbor_id)
        elif deeper is not None:
            destination = self._nest(parent, deeper, signature)
        else:
            destination = self._parent(here)
        return self._spend_and_mint(state, destination)

    def _neighbour(self, here: int, neighbor_id: int) -> int:
        if self.get(check_id("move: neighbor", neighbor_id)) is None:
            raise NotFound(f"move: unknown neighbor {neighbor_id}")
        found = self.conn.execute(
            queries.EDGE_BETWEEN, (here, neighbor_id, neighbor_id, here)
        ).fetchone()
        if found is None:
            raise ForestError(f"move: no edge between {here} and {neighbor_id}")
        self._refuse_sealed(neighbor_id, "move: neighbor")
        return neighbor_id

    def _parent(self, here: int) -> int:
        for kind in ("nests", "derived_from"):
            row = self.conn.execute(queries.PARENT_VIA, (here, kind)).fetchone()
            if row is not None and self._visible(int(row[0])) is not None:
                self._refuse_sealed(int(row[0]), "move: parent")
                return int(row[0])
        raise ForestError(f"move: no parent above {here}")

    def _nest(self, parent: Any, deeper: tuple[int, int], signature: str) -> int:
        pair = tuple(deeper) if isinstance(deeper, (tuple, list)) else ()
        if len(pair) != 2 or any(type(n) is not int for n in pair):  # 1.5 is no offset
            raise ForestError("move: deeper must be a (start, end) pair of ints")
        start, end = pair
        body: str = parent["body"]
        if not 0 <= start < end <= len(body):
            raise ForestError("move: deeper slice out of range")
        extract = body[start:end]
        existing = self.conn.execute(
            queries.EXISTING_NEST, (parent["id"], extract, start, end, self.scope)
        ).fetchone()
        if existing is not None:
            return int(existing[0])
        with self.atomic():
            return self.insert_entry(
                body=extract,
                jurisdiction=parent["jurisdiction"],
                bucket="note",
                signature=signature,
                meta={"start": start, "end": end, "parent_id": parent["id"]},
                origins=[(int(parent["id"]), "nests")],
            )
