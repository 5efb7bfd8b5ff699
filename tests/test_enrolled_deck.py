"""The players' own deck, end to end: a deck file of Rollecate's cards at its own card size and
in a look of its own (vision.styles' white-bordered cards), its faces scanned, enrolled with
``conductor vision enroll``, then read by ``vision identify`` and ``score`` from a photo; and a
game played with enrolled references, resumed with them."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import pytest

from host.cli import main
from host.deck import load_deck, parse_deck
from host.deck_choice import DeckChoice
from host.rollecate.cards import default_book
from host.rollecate.scoring import score_table
from host.tables.rollecate import GAME, demo_table
from vision.camera import RenderedCamera
from vision.imaging import Image, write_image
from vision.pipeline import Pipeline
from vision.recognize import load_references
from vision.rollecate_scene import render_final_count
from vision.scene import OWN_FACES, render_cards
from vision.styles import StyledDeck

CARD_MM = [60.0, 92.0]
"""Not poker size: the deck file's ``card_mm`` must be what every step measures cards with."""
DECK_SEED = 5
"""The faces' seed."""
SEED = 3
"""The demo table's seed: seat 0 builds a 4 in the first turn."""


@dataclass(frozen=True)
class Enrolled:
    """The deck file, its references and its faces, named as the deck names its cards."""

    deck_file: Path
    references: Path
    faces: StyledDeck


@dataclass(frozen=True)
class UnderRollecatesNames:
    """The user's faces for tables the renderer lays with Rollecate's card names."""

    deck: StyledDeck

    @property
    def card_mm(self) -> tuple[float, float]:
        """The user's card size."""
        return self.deck.card_mm

    def face(self, name: str, px_per_mm: float) -> Image:
        """The user's face of ``rollecate/NAME``."""
        return self.deck.face(name.rsplit("/", 1)[-1], px_per_mm)

    def mask(self, px_per_mm: float) -> Image:
        """The user's cards' silhouette."""
        return self.deck.mask(px_per_mm)


@pytest.fixture(scope="module")
def enrolled(tmp_path_factory: pytest.TempPathFactory) -> Enrolled:
    folder = tmp_path_factory.mktemp("my-deck")
    shipped = json.loads(Path("host/decks/rollecate.json").read_text("utf-8"))
    text = json.dumps({**shipped, "deck": "my-rollecate", "title": "My Rollecate",
                       "card_mm": CARD_MM})
    deck_file = folder / "my-rollecate.json"
    deck_file.write_text(text, "utf-8")
    faces = StyledDeck("bordered", DECK_SEED, parse_deck(text))
    for card in faces.deck.cards:  # one flat scan per card
        write_image(folder / "scans" / f"{card.name}.png", faces.face(card.id, 8.0))
    references = folder / "my-rollecate.npz"
    assert main(["vision", "enroll", "--out", str(references), str(deck_file),
                 str(folder / "scans")]) == 0
    return Enrolled(deck_file, references, faces)


def test_identify_names_the_enrolled_cards_on_a_table_photo(
    enrolled: Enrolled, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = [card.id for card in enrolled.faces.deck.cards[:6]]
    image, truth = render_cards(names, 5, "easy", faces=enrolled.faces)
    write_image(tmp_path / "table.png", image)
    capsys.readouterr()
    assert main(["vision", "identify", str(tmp_path / "table.png"), "--deck",
                 str(enrolled.deck_file), "--references", str(enrolled.references),
                 "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    named = [card["name"] for card in printed["cards"] if card["name"] is not None]
    assert len(printed["cards"]) == 6 and len(named) >= 5, printed
    assert set(named) <= {seen.name for seen in truth.cards}, printed  # no wrong name


def test_score_reads_a_final_count_of_the_enrolled_deck(
    enrolled: Enrolled, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seats = [["track-1", "track-4", "broken-2", "chaos-3"], ["track-2", "track-3"]]
    photo = tmp_path / "end.png"
    write_image(photo, render_final_count(seats, 3, faces=UnderRollecatesNames(enrolled.faces)))
    capsys.readouterr()
    assert main(["score", "rollecate", str(photo), "--deck", str(enrolled.deck_file),
                 "--references", str(enrolled.references), "--json"]) == 0
    book = default_book()
    expected = score_table([[book.value(name) for name in cards] for cards in seats]).to_json()
    assert json.loads(capsys.readouterr().out) == expected


def _video(path: Path, scenes: int) -> str:
    views = [scene.view for scene in demo_table(SEED, 2).scenes[:scenes]]
    camera = RenderedCamera(views, seed=SEED)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), camera.fps,
                             (1280, 720))
    for frame in camera:
        writer.write(frame.image)
    writer.release()
    return str(path)


def test_a_game_played_with_enrolled_references_resumes_with_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The players printed Conductor's Rollecate deck and enrolled their own print from a scan
    # of each of its thirteen cards (decks of other looks cannot read a Rollecate table yet:
    # a card under the train or touching the next one is not named; docs/vision.md, Limits).
    names = [card.name for card in load_deck("rollecate").cards]
    for name in names:  # a scan of each card
        write_image(tmp_path / "print" / f"{name}.png", OWN_FACES.face(f"rollecate/{name}", 8.0))
    references = tmp_path / "our-print.npz"
    assert main(["vision", "enroll", "rollecate", str(tmp_path / "print"), "--out",
                 str(references)]) == 0
    db = str(tmp_path / "games.sqlite")
    # Played until the table as dealt is seen: the game is journaled, then the app is gone.
    capsys.readouterr()
    assert main(["play", "rollecate", "--players", "2", "--camera", _video(tmp_path / "a.avi", 1),
                 "--board", "none", "--deck", "rollecate", "--references", str(references),
                 "--db", db]) == 0
    assert "journaled as game 1" in capsys.readouterr().out
    # Resumed without the options: read with the journaled references, it sees the build.
    built = _video(tmp_path / "built.avi", 2)
    assert main(["resume", "1", "--camera", built, "--db", db]) == 0
    said = capsys.readouterr().out.split("Resuming game 1")[1]
    assert f"cards read with {references.resolve()}" in said and "roll 4 dice" in said, said
    # References changed since, or gone: one line saying so, and nothing is played.
    references.write_bytes(references.read_bytes() + b"\0")
    assert main(["resume", "1", "--camera", built, "--db", db]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "have changed since" in error, error
    references.unlink()
    assert main(["resume", "1", "--camera", built, "--db", db]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "which are gone" in error, error


def test_a_card_read_with_the_enrolled_deck_maps_its_own_millimetres(enrolled: Enrolled) -> None:
    names = [card.id for card in enrolled.faces.deck.cards[:3]]
    image, _ = render_cards(names, 5, "easy", faces=enrolled.faces)
    cards = Pipeline(deck="my-rollecate", references=load_references(enrolled.references)
                     ).read(image).cards
    assert cards
    for card in cards:
        # The card's far corner, in its deck's millimetres, is where the card ends in the image.
        corner = card.card_to_image() @ [*CARD_MM, 1.0]
        assert corner[:2] / corner[2] == pytest.approx(card.corners[2], abs=0.5)


def test_photos_of_cards_on_the_table_enroll_without_taking_a_marker_for_a_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Four cards a photo, the table markers in view: a marker's square once passed for a card
    # ("names 4 cards but 6 were found").
    names = [card.name for card in load_deck("rollecate").cards]
    for first in range(0, len(names), 4):
        shown = names[first:first + 4]
        photo, _ = render_cards([f"rollecate/{name}" for name in shown], 2, "easy")
        write_image(tmp_path / "photos" / ("+".join(shown) + ".png"), photo)
    references = tmp_path / "photos.npz"
    assert main(["vision", "enroll", "rollecate", str(tmp_path / "photos"), "--out",
                 str(references)]) == 0
    assert "enrolled 13 cards (13 pictures)" in capsys.readouterr().out
    # They read the table as dealt, the card under the train included.
    dealt = demo_table(SEED, 2).scenes[0].view
    frame = next(iter(RenderedCamera([dealt], seed=SEED)))
    assert GAME.pipeline is not None
    reading = GAME.pipeline(2, load_references(references)).read(frame.image)
    assert reading.observation == dealt


def test_a_game_needs_every_card_enrolled_but_a_journaled_game_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Twelve of Rollecate's thirteen cards scanned: a game would wait for ever for the card
    # left out, and could take it for an enrolled look-alike (docs/vision.md, Limits).
    names = [card.name for card in load_deck("rollecate").cards]
    for name in names[1:]:
        write_image(tmp_path / "print" / f"{name}.png", OWN_FACES.face(f"rollecate/{name}", 8.0))
    references = tmp_path / "in-part.npz"
    assert main(["vision", "enroll", "rollecate", str(tmp_path / "print"), "--out",
                 str(references)]) == 0
    capsys.readouterr()
    db = tmp_path / "games.sqlite"
    photo = tmp_path / "table.png"
    write_image(photo, render_cards([f"rollecate/{name}" for name in names[1:4]], 5, "easy")[0])
    for command in (["play", "rollecate", "--players", "2", "--camera",
                     _video(tmp_path / "a.avi", 1), "--board", "none", "--db", str(db)],
                    ["score", "rollecate", str(photo)]):
        assert main([*command, "--deck", "rollecate", "--references", str(references)]) == 2
        error = capsys.readouterr().err
        assert error.count("\n") == 1 and "holds 12 of the deck's 13 cards" in error, error
        assert f"rollecate/{names[0]}" in error and "enroll every card" in error, error
    assert not db.exists()  # refused before any game was journaled
    # Looking at cards is allowed, with a warning once the work is done.
    assert main(["vision", "identify", str(photo), "--deck", "rollecate", "--references",
                 str(references), "--json"]) == 0
    said = capsys.readouterr()
    assert json.loads(said.out)["cards"] and "holds 12 of the deck's 13" in said.err, said
    # A game journaled with these references (before the rule) is resumed with them.
    settings = {"deck": "rollecate", "references": str(references.resolve()),
                "references_sha256": hashlib.sha256(references.read_bytes()).hexdigest()}
    resumed = DeckChoice.journaled("rollecate", 1, settings)
    assert resumed.read_with is not None and len(resumed.read_with.cards) == 12
