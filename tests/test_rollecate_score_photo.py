"""``conductor score rollecate PHOTO``: the final count read from a photo of every player's
cards spread out in front of them."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from host.cli import main
from host.rollecate.cards import default_book
from host.rollecate.scoring import score_table
from vision.imaging import write_image
from vision.rollecate_scene import render_final_count

SEATS = [
    ["track-1", "track-2", "track-3", "track-4", "broken-1", "chaos-2", "track-2", "track-3"],
    ["track-4", "chaos-5", "track-1"],
    ["broken-3", "track-1", "track-1"],
]


def _expected(seats: list[list[str]]) -> dict[str, object]:
    book = default_book()
    return score_table([[book.value(name) for name in cards] for cards in seats]).to_json()


@pytest.mark.parametrize("seed", [3, 8])
def test_a_photo_of_the_final_count_scores_like_the_cards_in_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: int
) -> None:
    photo = tmp_path / "end.jpg"
    # The railway is still on the table: linked to its start tile, it is left out.
    write_image(photo, render_final_count(SEATS, seed, railway=["track-2", "track-4", "track-3"]))
    assert main(["score", "rollecate", str(photo), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == _expected(SEATS), f"seed {seed}"
    assert main(["score", "rollecate", str(photo)]) == 0
    said = capsys.readouterr().out
    assert "the railway (3 cards) left out" in said and said.rstrip().endswith(
        "wins (decided by total)")


def test_a_seat_with_no_cards_needs_the_number_of_players(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seats = [["track-3", "track-1"], [], ["track-2"], ["broken-4"]]
    photo = tmp_path / "end.png"
    write_image(photo, render_final_count(seats, 5))
    assert main(["score", "rollecate", str(photo)]) == 2
    assert "give --players" in capsys.readouterr().err
    assert main(["score", "rollecate", str(photo), "--players", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == _expected(seats)


def test_a_photo_without_the_table_markers_or_a_file_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blank = tmp_path / "blank.png"
    write_image(blank, render_final_count([[], []], 2)[:200, :200])
    assert main(["score", "rollecate", str(blank), "--players", "2"]) == 2
    assert "markers" in capsys.readouterr().err
    assert main(["score", "rollecate", str(tmp_path / "missing.jpg")]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["score", "express", str(blank), "--players", "2"]) == 2
    assert "markers" in capsys.readouterr().err


def test_the_deck_options_read_the_photo_or_say_in_one_line_what_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = tmp_path / "end.png"
    write_image(photo, render_final_count(SEATS, 3))
    # The shipped deck, named: read with Conductor's own faces, as without the option.
    assert main(["score", "rollecate", str(photo), "--deck", "rollecate", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == _expected(SEATS)
    # The players' own deck file, with Rollecate's cards but not enrolled yet.
    shipped = json.loads((Path("host/decks/rollecate.json")).read_text("utf-8"))
    mine = tmp_path / "my-rollecate.json"
    mine.write_text(json.dumps({**shipped, "deck": "my-rollecate"}), "utf-8")
    for deck, said in ((str(mine), "enroll it first"), ("trains", "does not hold Rollecate")):
        assert main(["score", "rollecate", str(photo), "--deck", deck]) == 2
        err = capsys.readouterr().err
        assert said in err and len(err.strip().splitlines()) == 1, err
    assert main(["play", "rollecate", "--players", "3", "--deck", str(mine), "--camera", "99",
                 "--board", "none", "--db", str(tmp_path / "games.sqlite")]) == 2
    assert "enroll it first" in capsys.readouterr().err


def test_a_twelve_megapixel_photo_is_read_at_the_size_the_recognizer_needs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    small = render_final_count(SEATS, 3)
    photo = tmp_path / "phone.jpg"  # a phone's 4000 x 3000, the table filling 4000 x 2250
    big = cv2.resize(small, (4000, 2250), interpolation=cv2.INTER_CUBIC)
    write_image(photo, np.vstack([big, np.full((750, 4000, 3), 90, np.uint8)]))
    assert main(["score", "rollecate", str(photo)]) == 0
    said = capsys.readouterr().out
    assert "reading phone.jpg (4000 x 3000 pixels, read at 1920 x 1440)…" in said, said
    assert main(["score", "rollecate", str(photo), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == _expected(SEATS)
    # identify reads it the same way and tells the corners in the photo's own pixels.
    write_image(tmp_path / "webcam.png", small)
    corners = {}
    for name in ("phone.jpg", "webcam.png"):
        assert main(["vision", "identify", str(tmp_path / name), "--deck", "rollecate",
                     "--json"]) == 0
        cards = json.loads(capsys.readouterr().out)["cards"]
        corners[name] = sorted(card["centre"] for card in cards)
    assert len(corners["phone.jpg"]) == len(corners["webcam.png"]) == sum(map(len, SEATS))
    assert np.allclose(corners["phone.jpg"], np.array(corners["webcam.png"]) * 4000 / 1280,
                       atol=15)
