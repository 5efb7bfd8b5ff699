"""The deck a game at the table is read with, kept in its journal: ``resume`` must read the
cards with the same deck and the same enrolled references as ``play`` did, or a game played
with the players' own deck would go on with Conductor's faces and see nothing it knows.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host.errors import BadInputError
from vision.deck_references import DeckReferences, game_references


@dataclass(frozen=True)
class DeckChoice:
    """``--deck`` and ``--references`` as a game was started with, and what they read."""

    deck: str | None = None
    """A shipped deck's name, or a deck file's absolute path (None: the game's own deck)."""
    references: Path | None = None
    """The enrolled references file, absolute (None: Conductor's own faces)."""
    digest: str | None = None
    """SHA-256 of the references file when the game started, so a changed file is noticed."""
    read_with: DeckReferences | None = None
    """The references the camera reads the cards with (None: Conductor's own faces)."""

    @classmethod
    def chosen(cls, game_deck: str, deck: str | None, references: Path | None,
               resumed: bool = False) -> DeckChoice:
        """The options as given for a game played with the shipped deck ``game_deck``,
        checked and loaded now (BadInputError in one line), before any camera opens. A new
        game needs every card enrolled; a game ``resumed`` goes on with the references it was
        started with, whatever they hold, so none is lost to a newer rule."""
        read_with = game_references(game_deck, deck, references, whole=not resumed)
        if deck is not None and Path(deck).is_file():
            deck = str(Path(deck).resolve())
        if references is None:
            return cls(deck, None, None, read_with)
        return cls(deck, references.resolve(), _digest(references), read_with)

    def settings(self) -> dict[str, str]:
        """What the journal keeps of the choice (nothing for the game's own deck and faces)."""
        kept = {"deck": self.deck, "references_sha256": self.digest,
                "references": None if self.references is None else str(self.references)}
        return {key: value for key, value in kept.items() if value is not None}

    @classmethod
    def journaled(cls, game_deck: str, game_id: int, settings: Mapping[str, Any]) -> DeckChoice:
        """The choice a journaled game was started with, loaded again; BadInputError in one
        line if its references file is gone or is no longer the one the game was read with."""
        deck, references = settings.get("deck"), settings.get("references")
        if references is None:
            return cls.chosen(game_deck, deck, None, resumed=True)
        path = Path(str(references))
        if not path.is_file():
            raise BadInputError(f"game {game_id} was read with the references {path}, which are "
                                "gone: put them back to resume it")
        if _digest(path) != settings.get("references_sha256"):
            raise BadInputError(f"game {game_id} was read with the references {path}, which "
                                "have changed since: put the enrolled file back to resume it")
        return cls.chosen(game_deck, deck, path, resumed=True)


def _digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as error:
        raise BadInputError(f"cannot read references {path}: {error.strerror}") from None


OWN_FACES = DeckChoice()
"""The game's own deck, read with Conductor's faces."""
