"""``conductor vision ...`` from the command line, and enrollment of a deck from pictures."""

import json
from pathlib import Path

import numpy as np
import pytest

from host.cli import main
from host.deck import load_deck
from host.trains.observation import TrainsObservation
from vision.camera import RenderedCamera
from vision.enroll import enroll, names_in
from vision.imaging import read_image, write_image
from vision.pipeline import Pipeline
from vision.scene import random_trains_table, render_cards, render_table
from vision.stabilizer import Stabilizer
from vision.trains_zones import TrainsZones


def test_identify_prints_each_card_with_name_confidence_corners_and_centre(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = random_trains_table(31, players=2)
    image, truth = render_table(table, 31, "easy")
    write_image(tmp_path / "table.png", image)
    assert main(["vision", "identify", str(tmp_path / "table.png"), "--deck", "trains",
                 "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["table_found"] is True
    printed = {card["name"]: card for card in result["cards"]}
    for seen in truth.cards:
        card = printed[seen.name]
        assert 0.0 < card["confidence"] <= 1.0
        assert np.allclose(card["centre"], seen.centre, atol=4)
        assert np.allclose(card["corners"], seen.corners, atol=6)


@pytest.mark.parametrize("argv", [
    ["vision", "identify", "missing.png"],
    ["vision", "identify", "garbage.png"],
    ["vision", "watch", "--camera", "7"],
    ["vision", "watch", "--camera", "missing.mp4"],
    ["vision", "enroll", "trains", "no-such-folder"],
])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "garbage.png").write_bytes(b"not a picture")
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert error.startswith("conductor: ") and error.count("\n") == 1


def test_printable_markers_and_deck(tmp_path: Path) -> None:
    assert main(["vision", "markers", str(tmp_path / "markers.pdf")]) == 0
    assert (tmp_path / "markers.pdf").read_bytes().startswith(b"%PDF-1.4")
    assert main(["vision", "markers", str(tmp_path / "markers.png")]) == 0
    from vision.markers import TableFinder
    from vision.rollecate_table import START_MARKER_ID

    sheet = read_image(tmp_path / "markers.png")
    finder = TableFinder()
    finder.update(sheet)
    assert finder.seen == 4  # the printed sheet is what the detector reads
    assert START_MARKER_ID in finder.extra  # and Rollecate's start tile
    assert main(["vision", "deck", "rollecate", str(tmp_path / "faces")]) == 0
    assert len(list((tmp_path / "faces").glob("*.png"))) == len(load_deck("rollecate").cards)


def test_a_deck_is_enrolled_from_its_printed_faces_and_then_read(tmp_path: Path) -> None:
    assert main(["vision", "deck", "rollecate", str(tmp_path / "faces")]) == 0
    references = enroll("rollecate", tmp_path / "faces")
    assert references.cards == sorted(card.id for card in load_deck("rollecate").cards)
    names = ["rollecate/track-1", "rollecate/broken-3", "rollecate/chaos-5", "rollecate/track-4"]
    image, _ = render_cards(names, 5, "easy")
    reading = Pipeline(deck="rollecate", references=references).read(image)
    assert sorted(card.name for card in reading.cards if card.name) == sorted(names)


def test_a_photo_of_many_cards_in_reading_order_enrolls_them_all(tmp_path: Path) -> None:
    deck = load_deck("trains")
    numbers = list(range(1, 17))
    image, _ = render_cards([f"trains/{n}" for n in numbers], 9, "easy")
    write_image(tmp_path / "1-16.png", image)
    assert names_in(tmp_path / "1-16.png", deck) == [f"trains/{n}" for n in numbers]
    references = enroll("trains", tmp_path)
    assert references.cards == sorted(f"trains/{n}" for n in numbers)
    # The enrolled windows name the cards on another photograph: never wrongly, and mostly.
    other, truth = render_cards([f"trains/{n}" for n in reversed(numbers)], 10, "easy")
    reading = Pipeline(references=references).read(other)
    by_centre = {tuple(np.round(card.centre)): card.name for card in reading.cards}
    assert len(by_centre) == len(numbers)
    named = 0
    for seen in truth.cards:
        nearest = min(by_centre, key=lambda c: np.hypot(c[0] - seen.centre[0],
                                                        c[1] - seen.centre[1]))
        assert by_centre[nearest] in (seen.name, None)
        named += by_centre[nearest] == seen.name
    assert named >= len(numbers) - 2


def test_the_rendered_camera_plays_a_game_the_pipeline_reports_move_by_move() -> None:
    first = random_trains_table(41, players=3)
    lines = list(first.lines)
    lines[1] = (*lines[1][:3], 84, *lines[1][4:])
    second = TrainsObservation(tuple(lines), (*first.faceup, first.lines[1][3]), first.locks)
    camera = RenderedCamera([first, second, first], seed=41, still_frames=11, hand_frames=4)
    pipeline, stabilizer = Pipeline(zones=TrainsZones(3)), Stabilizer[TrainsObservation]()
    events = []
    for frame in camera:
        event = stabilizer.feed(frame.timestamp, pipeline.read(frame.image).observation)
        if event is not None:
            events.append(event)
    assert events == [first, second, first]


def test_a_handful_of_cards_teaches_the_digits_and_icons_of_the_whole_deck(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Eight cards that between them show the ten digits and the eight abilities.
    hand = [9, 10, 12, 14, 23, 45, 67, 80]
    image, _ = render_cards([f"trains/{n}" for n in hand], 3, "easy")
    write_image(tmp_path / ("+".join(map(str, hand)) + ".png"), image)
    assert main(["vision", "enroll", "trains", str(tmp_path), "--glyphs"]) == 0
    assert "enrolled 84 cards" in capsys.readouterr().out
    from vision.identify import References

    references = References.load(tmp_path / "trains.references.npz")
    counts = {"seen": 0, "correct": 0}
    for seed in (1, 2):
        table = random_trains_table(seed, players=4)
        photo, truth = render_table(table, seed, "easy")
        reading = Pipeline(references=references).read(photo)
        for seen in truth.cards:
            near = [card for card in reading.cards
                    if np.hypot(*np.subtract(card.centre, seen.centre)) < 15]
            counts["seen"] += 1
            assert near and near[0].name in (seen.name, None)
            counts["correct"] += near[0].name == seen.name
    assert counts["correct"] >= 0.9 * counts["seen"], counts


def test_too_small_a_handful_says_what_is_missing(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    image, _ = render_cards(["trains/12", "trains/34"], 3, "easy")
    write_image(tmp_path / "12+34.png", image)
    assert main(["vision", "enroll", "trains", str(tmp_path), "--glyphs"]) == 2
    error = capsys.readouterr().err
    assert "0, 5, 6, 7, 8, 9" in error and "protect" in error


def test_watch_without_a_display_writes_annotated_frames_and_prints_changes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(["vision", "watch", "--camera", "rendered", "--frames", "14"]) == 0
    frames = sorted((tmp_path / "vision-watch").glob("frame-*.jpg"))
    assert len(frames) == 14
    assert read_image(frames[-1]).shape == (720, 1280, 3)
    lines = capsys.readouterr().out.splitlines()
    # The first table of the rendered game, reported once it has been still for 0.6 s.
    assert len(lines) == 1
    change = json.loads(lines[0])
    assert change["observation"]["lines"][0] == [12, 30, 5, 61, 44, 2, 70]
    assert change["t"] >= 0.6


def test_calibrate_keeps_the_empty_table_and_refuses_a_frame_without_markers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "calibration.json"
    assert main(["vision", "calibrate", "--camera", "rendered", "--out", str(out)]) == 0
    seen = json.loads(out.read_text("utf-8"))
    assert seen["resolution"] == [1280, 720] and seen["markers_found"] is True
    # The rendered cloth is brown-orange: red over blue, and the light falls unevenly.
    blue, _, red = seen["cloth_bgr"]
    assert red > blue and 0 < seen["light_unevenness"] < 1
    kept = tmp_path / seen["empty_table"]
    assert read_image(kept).shape == (720, 1280, 3)
    assert f"when given --calibration {out}" in capsys.readouterr().out
    # No markers: nothing could line the cloth up with the table. One line, and the
    # calibration made before is left as it was.
    before = out.read_bytes(), kept.read_bytes()
    photo = tmp_path / "cards.png"
    write_image(photo, np.zeros((50, 60, 3), np.uint8))
    assert main(["vision", "calibrate", "--camera", str(photo), "--out", str(out)]) == 2
    assert "markers are not in view" in capsys.readouterr().err
    assert (out.read_bytes(), kept.read_bytes()) == before
