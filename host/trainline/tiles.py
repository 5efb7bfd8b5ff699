"""Train tiles as data, and the layout of two tiles joined along their long or short sides.

A tile file (``host/decks/trainline-tiles/<name>.json``) draws the tile as rows of characters
(``A`` aisle, ``s`` empty seat, ``P`` seat with a printed passenger, ``S`` start space, ``.``
nothing) and lists its metal bars as pairs of neighbouring cells ``[[row, col], [row, col]]``
that no pawn may cross. The format is documented in ``docs/trainline.md``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from importlib import resources
from typing import Any

from host.errors import BadInputError

Cell = tuple[int, int]


class Space(Enum):
    """What a cell of a tile is."""

    AISLE = "A"
    SEAT = "s"
    PASSENGER = "P"
    START = "S"
    NOTHING = "."


class Join(Enum):
    """How the two tiles are put together."""

    SHORT = "short"
    """End to end: the second tile to the right of the first (rows must match)."""
    LONG = "long"
    """Side by side: the second tile below the first (columns must match)."""


@dataclass(frozen=True)
class Tile:
    """One train tile."""

    name: str
    """The tile's name, for example ``red-line``."""
    rows: tuple[str, ...]
    """The drawing, one string per row, one character per cell."""
    bars: frozenset[frozenset[Cell]]
    """Metal bars, each between two neighbouring cells."""


def parse_tile(text: str, origin: str = "tile") -> Tile:
    """Read a tile file, with a one-line reason for anything wrong."""
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as error:
        raise BadInputError(f"{origin}: not JSON ({error.msg})") from None
    if not isinstance(data, dict):
        raise BadInputError(f"{origin}: a tile is a JSON object")
    name, rows, bars = data.get("tile"), data.get("rows"), data.get("bars", [])
    if (
        not isinstance(name, str)
        or not isinstance(rows, list)
        or not rows
        or not all(isinstance(row, str) for row in rows)
    ):
        raise BadInputError(f'{origin}: needs "tile" (text) and "rows" (a list of strings)')
    if len({len(row) for row in rows}) != 1:
        raise BadInputError(f"{origin}: every row needs the same length")
    known = {space.value for space in Space}
    for number, row in enumerate(rows):
        if set(row) - known:
            strange = sorted(set(row) - known)
            raise BadInputError(f"{origin}: row {number} has unknown cells {strange}")
    found: set[frozenset[Cell]] = set()
    listed: list[Any] = bars if isinstance(bars, list) else [None]
    for bar in listed:
        try:
            (r1, c1), (r2, c2) = bar
            pair = frozenset({(int(r1), int(c1)), (int(r2), int(c2))})
        except (TypeError, ValueError):
            raise BadInputError(f"{origin}: a bar is [[row, col], [row, col]]") from None
        if abs(r1 - r2) + abs(c1 - c2) != 1:
            raise BadInputError(f"{origin}: a bar lies between two neighbouring cells")
        found.add(pair)
    return Tile(name, tuple(rows), frozenset(found))


def load_tile(name: str) -> Tile:
    """A tile shipped with Conductor (``red-line``, ``blue-line``)."""
    source = resources.files("host") / "decks" / "trainline-tiles" / f"{name}.json"
    if not source.is_file():
        raise BadInputError(f"no train tile called {name!r}")
    return parse_tile(source.read_text(encoding="utf-8"), origin=f"tile {name!r}")


@dataclass(frozen=True)
class Layout:
    """The train the pawns board: cells, what each is, which are linked, where pawns start."""

    spaces: dict[Cell, Space]
    """Every cell that is part of the train or a start space."""
    links: dict[Cell, tuple[Cell, ...]]
    """For each aisle or seat cell, the aisle and seat cells a pawn may step to."""
    entries: dict[Cell, Cell]
    """Each start space and the aisle cell a pawn boarding there enters."""

    @property
    def starts(self) -> list[Cell]:
        """The start spaces, in reading order."""
        return sorted(self.entries)

    def seats(self) -> list[Cell]:
        """Cells where a pawn can be seated (printed passengers excluded)."""
        return sorted(cell for cell, space in self.spaces.items() if space is Space.SEAT)


def join(first: Tile, second: Tile, how: Join) -> Layout:
    """The layout of two tiles placed together."""
    if how is Join.SHORT and len(first.rows) != len(second.rows):
        raise BadInputError("tiles joined at their short sides need the same number of rows")
    if how is Join.LONG and len(first.rows[0]) != len(second.rows[0]):
        raise BadInputError("tiles joined at their long sides need the same number of columns")
    row_shift, col_shift = (0, len(first.rows[0])) if how is Join.SHORT else (len(first.rows), 0)
    spaces: dict[Cell, Space] = {}
    bars: set[frozenset[Cell]] = set()
    for tile, (dr, dc) in ((first, (0, 0)), (second, (row_shift, col_shift))):
        for r, row in enumerate(tile.rows):
            for c, char in enumerate(row):
                if char != Space.NOTHING.value:
                    spaces[(r + dr, c + dc)] = Space(char)
        bars.update(frozenset((r + dr, c + dc) for r, c in bar) for bar in tile.bars)
    walkable = {
        cell
        for cell, space in spaces.items()
        if space in (Space.AISLE, Space.SEAT, Space.PASSENGER)
    }
    links: dict[Cell, tuple[Cell, ...]] = {}
    for cell in sorted(walkable):
        links[cell] = tuple(
            near
            for near in _around(cell)
            if near in walkable and frozenset({cell, near}) not in bars
        )
    entries: dict[Cell, Cell] = {}
    for cell, space in spaces.items():
        if space is Space.START:
            doors = [near for near in _around(cell) if spaces.get(near) is Space.AISLE]
            if len(doors) != 1:
                raise BadInputError(f"start space {cell} needs exactly one aisle cell beside it")
            entries[cell] = doors[0]
    if not entries:
        raise BadInputError("the layout has no start space")
    return Layout(spaces, links, entries)


def _around(cell: Cell) -> list[Cell]:
    r, c = cell
    return [(r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)]


#: The layout used when nothing else is said: the two shipped tiles joined end to end.
DEFAULT_TILES = ("red-line", "blue-line")
DEFAULT_JOIN = Join.SHORT


def default_layout() -> Layout:
    """The shipped tiles joined end to end."""
    return join(load_tile(DEFAULT_TILES[0]), load_tile(DEFAULT_TILES[1]), DEFAULT_JOIN)
