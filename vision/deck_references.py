"""The references a recognizer reads a deck with: enrolled ones, or Conductor's own faces.

Shared by every command that takes ``--deck NAME|FILE`` and ``--references FILE``.
"""

from __future__ import annotations

import copy
from pathlib import Path

from host.deck import deck_from, load_deck
from host.errors import BadInputError
from vision.identify import References, rendered_references
from vision.recognize import CardReferences, DamagedTwinsError, load_references

DECKS = ("trains", "rollecate", "express")
"""Decks Conductor draws faces for (others can be enrolled from photos)."""

DeckReferences = References | CardReferences
"""Our framed faces' windows, or any enrolled deck's whole faces."""
MISSING_SHOWN = 8
"""Cards not enrolled named in ``enrolled_in_part``'s sentence (the rest are counted)."""


def enrolled_in_part(references: DeckReferences, deck_name: str, path: Path | None) -> str | None:
    """What is missing from ``references`` read from ``path`` for the deck ``deck_name``, in
    a sentence, or None when every card of it is enrolled."""
    if isinstance(references, CardReferences) and references.complete:
        return None
    enrolled = set(references.cards)
    missing = [card.id for card in deck_from(deck_name).cards if card.id not in enrolled]
    if not missing:
        if isinstance(references, References):
            return None
        # Written before a references file said whether it holds the whole deck: read as
        # one enrolled in part (``CardReferences.complete``).
        return (f"{path} was enrolled by an older Conductor that did not record a whole deck: "
                f"enroll it again (conductor vision enroll {deck_name} PICTURES/)")
    shown = ", ".join(missing[:MISSING_SHOWN]) + (
        f" and {len(missing) - MISSING_SHOWN} more" if len(missing) > MISSING_SHOWN else "")
    return (f"{path} holds {len(enrolled)} of the deck's {len(enrolled) + len(missing)} cards "
            f"(not enrolled: {shown}); a card left out is never named and can be taken for "
            "one that looks like it: enroll every card in play")


def deck_references(deck_name: str, references: Path | None) -> DeckReferences:
    """The references for a deck (a name or a deck file): the enrolled ``references``, or
    our own faces of a shipped deck we draw; any other deck must be enrolled first
    (BadInputError saying how)."""
    deck = deck_from(deck_name)
    if references is not None:
        try:
            loaded = load_references(references)
        except DamagedTwinsError:
            raise
        except (BadInputError, EOFError, OSError, ValueError):
            raise BadInputError(f"cannot read references {references}: not a references "
                                "file (conductor vision enroll makes one)") from None
        if loaded.deck != deck.name:
            raise BadInputError(f"{references} holds deck {loaded.deck!r}, not {deck.name!r}")
        return loaded
    if deck.name in DECKS and not Path(deck_name).is_file():
        return rendered_references(deck.name)
    raise BadInputError(f"deck {deck.name!r} has no references: enroll it first "
                        f"(conductor vision enroll {deck_name} PICTURES/) and pass "
                        f"--references")


def game_references(game_deck: str, deck_name: str | None, references: Path | None,
                    whole: bool = True) -> DeckReferences | None:
    """The references a game's camera reads ``deck_name`` with, for a game played with the
    shipped deck ``game_deck`` (None: neither option given, so our own faces). The deck must
    hold the game's cards, by the same names, or the game could not tell them apart; and,
    ``whole``, every card must be enrolled: a game waits for ever for a card never named, and
    a card left out can be taken for an enrolled look-alike (docs/vision.md, Limits)."""
    if deck_name is None and references is None:
        return None
    deck = deck_from(deck_name or game_deck)
    game = load_deck(game_deck)
    if {card.name for card in deck.cards} != {card.name for card in game.cards}:
        raise BadInputError(f"deck {deck.name!r} does not hold {game.title}'s cards "
                            f"(its deck file must name them as the {game_deck} deck does)")
    read_with = deck_references(deck_name or game_deck, references)
    missing = enrolled_in_part(read_with, deck_name or game_deck, references) if whole else None
    if missing is not None:
        raise BadInputError(missing)
    return _under_the_games_names(read_with, game_deck)


def _under_the_games_names(references: DeckReferences, game_deck: str) -> DeckReferences:
    """The players' deck naming its cards as the game's deck does: the game's zones and
    referee know ``rollecate/track-1``, whatever the players' deck file calls itself."""
    if not isinstance(references, CardReferences) or references.deck == game_deck:
        return references
    renamed = copy.copy(references)
    renamed.deck = game_deck
    renamed.names = [f"{game_deck}/{name.split('/', 1)[-1]}" for name in references.names]
    return renamed
