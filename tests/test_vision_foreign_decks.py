"""Published-style decks without a frame line: deck files with a card size, the test decks'
faces, finding cards by their outline and naming them from whole faces, near twins included."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.vision_benchmark import jittered, name_styled
from host.cli import main
from host.deck import DeckError, deck_from, parse_deck
from vision import deck_reader, recognize, scene, twin_check, twins
from vision.deck_reader import DeckReader, SeenCard
from vision.deck_scene import render_spread, spread_layout
from vision.enroll import enroll_faces
from vision.imaging import Image, Matrix, read_image, transform_points, write_image
from vision.outline import Outline
from vision.pipeline import Pipeline
from vision.recognize import COMMON_RUNGS, CardReferences, load_references, too_alike
from vision.scene import render_cards
from vision.styles import STYLES, StyledDeck, styled_deck
from vision.twins import TwinClassifier, _photograph, needed_margin, resolution, rung


def _references(deck: StyledDeck, leave_out: str | None = None) -> CardReferences:
    """References enrolled from flat scans (6 px/mm) of the deck's faces (whole, unless a
    card is left out)."""
    return CardReferences(deck.deck.name, deck.card_mm, deck.scans(
        card.id for card in deck.deck.cards if card.id != leave_out), complete=leave_out is None)


def test_a_deck_file_gives_its_card_size_and_sensible_sizes_only(tmp_path: Path) -> None:
    cards = [{"name": "a"}, {"name": "b"}]
    assert parse_deck(json.dumps({"deck": "d", "cards": cards})).card_mm == (63.0, 88.0)
    # Either order, stored portrait.
    assert parse_deck(json.dumps({"deck": "d", "card_mm": [89, 57], "cards": cards})
                      ).card_mm == (57.0, 89.0)
    for bad in ([63], [0, 88], ["63", 88], [63, 900], True):
        with pytest.raises(DeckError, match="card_mm"):
            parse_deck(json.dumps({"deck": "d", "card_mm": bad, "cards": cards}))
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"deck": "mine", "card_mm": [56, 87], "cards": cards}))
    assert deck_from(str(path)).card_mm == (56.0, 87.0)
    assert deck_from("trains").name == "trains"
    with pytest.raises(DeckError):
        deck_from(str(tmp_path / "missing.json"))


@pytest.mark.parametrize("style", STYLES)
def test_every_style_draws_distinct_faces_with_rounded_corners_and_no_frame(style: str) -> None:
    deck = styled_deck(style, 7)
    faces = {card.id: deck.face(card.id, 4.0) for card in deck.deck.cards}
    mask = deck.mask(4.0)
    assert mask[0, 0] == 0 and mask[mask.shape[0] // 2, 0] == 255  # rounded corners
    assert mask.shape == next(iter(faces.values())).shape[:2]
    shapes = {face.tobytes() for face in faces.values()}
    assert len(shapes) == len(faces)  # every card's face differs from every other's
    if style in ("artwork", "bordered", "plain"):
        assert parse_deck(deck.deck_file()).card_mm == deck.card_mm
    assert styled_deck(style, 7).face(deck.deck.cards[0].id, 4.0).tobytes() == \
        faces[deck.deck.cards[0].id].tobytes()  # drawn from the seed alone
    assert not deck.held_out and styled_deck(style, 100).held_out


def test_near_twins_differ_only_in_their_corner_badges() -> None:
    deck = styled_deck("artwork", 3)
    first, second = deck.face("artwork-3/5", 4.0), deck.face("artwork-3/6", 4.0)
    differs = np.abs(first.astype(int) - second.astype(int)).max(axis=2) > 40
    ys, xs = np.nonzero(differs)
    height, width = differs.shape
    # Every difference lies in the top-left or the bottom-right badge (18 x 18 mm).
    corner = ((xs < 19 * 4) & (ys < 19 * 4)) | ((xs > width - 19 * 4) & (ys > height - 19 * 4))
    assert len(xs) > 50 and corner.all()


FOUND_AND_NAMED = {"artwork": (0.8, 0.1), "bordered": (0.9, 0.75), "plain": (0.65, 0.0),
                   "trains": (0.9, 0.6), "rollecate": (0.2, 0.1)}
"""Share of the cards in view each style must have found and named right on the easy table
below (a little under what was measured: the benchmark has the full figures)."""


@pytest.mark.parametrize("style", STYLES)
def test_each_style_is_found_and_named_on_an_easy_table_never_wrongly(style: str) -> None:
    deck = styled_deck(style, 1)
    image, truth = render_spread(deck, 11, "easy")
    reading = Pipeline(deck=deck.deck.name, references=_references(deck)).read(image)
    shown = [seen for seen in truth.cards if not seen.occluded]
    found = correct = 0
    left = list(reading.cards)
    for seen in sorted(truth.cards, key=lambda card: card.occluded):  # top cards first
        near = sorted(left, key=lambda card: np.hypot(*np.subtract(card.centre, seen.centre)))
        if not near or np.hypot(*np.subtract(near[0].centre, seen.centre)) >= 15:
            continue
        left = [card for card in left if card is not near[0]]
        assert near[0].name in (seen.name, None), (style, seen.name, near[0].name)
        if not seen.occluded:
            found += 1
            correct += near[0].name == seen.name
    assert not [card for card in left if card.name is not None]  # no named ghost
    least_found, least_named = FOUND_AND_NAMED[style]
    assert found >= least_found * len(shown), (style, found, len(shown))
    assert correct >= least_named * len(shown), (style, correct, len(shown))


def test_a_card_upside_down_is_named_with_its_own_top_left_corner_first() -> None:
    deck = styled_deck("bordered", 1)
    names = [card.id for card in deck.deck.cards[:4]]
    image, truth = render_cards(names, 4, "easy", faces=deck)
    turned = np.ascontiguousarray(image[::-1, ::-1])  # the whole table turned round
    reading = Pipeline(deck=deck.deck.name, references=_references(deck)).read(turned)
    size = np.array(image.shape[1::-1]) - 1
    named = 0
    for seen in truth.cards:
        corners = size - seen.corners  # where each of the card's own corners went
        near = [card for card in reading.cards
                if np.hypot(*np.subtract(card.centre, corners.mean(axis=0))) < 15]
        assert near and near[0].name in (seen.name, None)
        if near[0].name is not None:
            named += 1
            assert np.abs(near[0].corners - corners).max() < 8
    assert named >= 3


def test_a_twin_whose_own_reference_is_missing_is_not_named_as_its_twin() -> None:
    deck = styled_deck("artwork", 1)
    image, truth = render_cards(["artwork-1/9", "artwork-1/10", "artwork-1/11"], 2, "easy",
                                faces=deck)
    references = _references(deck, leave_out="artwork-1/10")
    reading = Pipeline(deck=deck.deck.name, references=references).read(image)
    middle = truth.cards[1]
    near = [card for card in reading.cards
            if np.hypot(*np.subtract(card.centre, middle.centre)) < 15]
    assert near and near[0].name is None  # same artwork as 9 and 11, another number


def test_a_deck_enrolled_in_part_never_names_a_card_left_out_as_its_twin() -> None:
    """Trains-look cards left out of enrollment (every third card) beside the enrolled twins
    they share their artwork with: an 18 is a 10 with a bold 8 for a slashed 0. Before each
    region where the twins differ was asked to agree, all four were named as their twin."""
    deck = styled_deck("trains", 1)
    enrolled = [card.id for index, card in enumerate(deck.deck.cards) if (index + 1) % 3]
    part = CardReferences(deck.deck.name, deck.card_mm, deck.scans(enrolled))
    names = ["trains/18", "trains/10", "trains/48", "trains/40", "trains/78", "trains/70",
             "trains/72", "trains/32"]
    assert not set(names[::2]) & set(enrolled) and set(names[1::2]) <= set(enrolled)
    image, truth = render_cards(names, 1, "easy", faces=deck)
    readings = [part.read(image, card.corners).name for card in truth.cards]
    assert readings == [None, "trains/10", None, "trains/40", None, "trains/70", None,
                        "trains/32"], readings


def test_a_card_left_out_lying_off_the_line_between_two_twins_is_not_named_as_either() -> None:
    """A full-bleed 33 left out of enrollment (every third card) between enrolled 34 and 35
    differs from both in its second digit: there it lay nearer 35 than 34 (balance clear)
    though far from 35 itself, and was named 35 (tuning table 303, easy, 1920 x 1080, at the
    naming benchmark's jittered corners). The enrolled 35 and 37 on the table stay named."""
    deck = styled_deck("artwork", 1)
    enrolled = [card.id for index, card in enumerate(deck.deck.cards) if (index + 1) % 3]
    assert "artwork-1/33" not in enrolled and {"artwork-1/35", "artwork-1/37"} <= set(enrolled)
    part = CardReferences(deck.deck.name, deck.card_mm, deck.scans(enrolled))
    seed = 303  # the benchmark's table
    with scene.scaled_camera(1.5):
        table = scene.lay_table(spread_layout(deck, seed),
                                scene.Look.draw(seed, scene.difficulty("easy")), faces=deck)
        image, truth = scene.photograph(table, 0)
    rng = np.random.default_rng([seed, 1, 71])
    named = {}
    for seen in truth.cards:
        if seen.occluded:
            continue
        corners = jittered(seen.corners, deck.card_mm, rng)
        if seen.name in ("artwork-1/33", "artwork-1/35", "artwork-1/37"):
            named[seen.name] = part.read(image, corners).name
    assert named == {"artwork-1/33": None, "artwork-1/35": "artwork-1/35",
                     "artwork-1/37": "artwork-1/37"}, (seed, named)


def test_the_top_card_of_a_pile_is_named_and_the_cards_under_it_are_not_reported() -> None:
    deck = styled_deck("trains", 1)
    for seed in range(20, 40):  # a table whose pile leaves little of the cards below in view
        image, truth = render_spread(deck, seed, "easy")
        piles = [seen for seen in truth.cards if seen.zone.startswith("pile")]
        if piles:
            break
    reading = Pipeline(deck="trains", references=_references(deck)).read(image)
    top = piles[0]
    near = [card for card in reading.cards
            if np.hypot(*np.subtract(card.centre, top.centre)) < 25]
    assert [card.name for card in near] in ([top.name], [None])


def _read_near_pile_top(style: str, scene: int) -> tuple[str, list[str | None]]:
    """The first pile's top card of a styled deck's easy tuning table, and the names read
    within 15 mm of it."""
    deck = styled_deck(style, 1)
    image, truth = render_spread(deck, scene, "easy")
    reading = Pipeline(deck=deck.deck.name, references=_references(deck)).read(image)
    top = next(seen for seen in truth.cards if seen.zone == "pile 0")
    return top.name, [card.name for card in reading.cards
                      if np.hypot(*np.subtract(card.centre, top.centre)) < 15]


@pytest.mark.usefixtures("full_hd")
def test_a_plain_piles_top_card_is_found_by_its_picture_where_its_outline_shows_no_edge(
        ) -> None:
    # Plain cards alike: the top card's sides over the card below show no edge, and the
    # outline search fits one to the sides of several of the pile's cards (read as no card).
    top, near = _read_near_pile_top("plain", 309)
    assert near in ([top], [None]), (top, near)


@pytest.mark.usefixtures("full_hd")
def test_a_bordered_piles_top_card_read_at_an_outline_off_it_is_named_where_its_picture_lies(
        ) -> None:
    # The outline search fits the top card's outline 15 mm off it, along the picture's edge of
    # the card below: read there, it scores as a card but too poorly to be named.
    top, near = _read_near_pile_top("bordered", 300)
    assert near == [top], (top, near)


def test_too_alike_pairs_are_the_ones_that_differ_only_in_fine_print() -> None:
    plain = _references(styled_deck("plain", 1))
    bordered = _references(styled_deck("bordered", 1))
    assert too_alike(bordered) == []
    # At a quarter of a webcam's resolution nothing but the emblem shows on plain cards.
    assert len(too_alike(plain, 0.25)) > len(too_alike(plain))
    # Near twins are judged by the classifier naming uses: only cards of one artwork can be
    # too alike, and fewer of them as the camera comes closer.
    artwork = _references(styled_deck("artwork", 1))
    pairs = too_alike(artwork)
    number = {name: int(name.split("/")[1]) for name in artwork.cards}
    assert pairs and all((number[a] - 1) // 4 == (number[b] - 1) // 4 for a, b, _ in pairs)
    assert len(too_alike(artwork, 1.6)) < len(pairs)


def test_enroll_a_deck_file_from_scans_then_identify_with_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = styled_deck("bordered", 2)
    (tmp_path / "deck.json").write_text(deck.deck_file())
    scans = tmp_path / "scans"
    for card in deck.deck.cards[:6]:
        write_image(scans / f"{card.name}.png", deck.face(card.id, 8.0))
    assert main(["vision", "enroll", str(tmp_path / "deck.json"), str(scans)]) == 0
    out = capsys.readouterr().out
    for card in deck.deck.cards[:6]:
        assert f"learnt {card.id} (1 picture)" in out
    assert "not enrolled" in out
    # Judged for the 1080p a webcam is asked for and the 720p many give.
    assert "too alike to tell apart, assuming a 1920x1080 webcam" in out
    assert "too alike to tell apart, assuming a 1280x720 one" in out
    references = load_references(scans / f"{deck.deck.name}.references.npz")
    assert isinstance(references, CardReferences) and len(references.cards) == 6
    image, truth = render_cards([card.id for card in deck.deck.cards[:6]], 3, "easy", faces=deck)
    write_image(tmp_path / "table.png", image)
    assert main(["vision", "identify", str(tmp_path / "table.png"), "--deck",
                 str(tmp_path / "deck.json"), "--references",
                 str(scans / f"{deck.deck.name}.references.npz"), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["table_found"] and len(printed["cards"]) == 6
    names = [card["name"] for card in printed["cards"] if card["name"] is not None]
    assert len(names) >= 5 and set(names) <= {seen.name for seen in truth.cards}


def test_a_sheet_of_cards_in_reading_order_enrolls_without_markers(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = styled_deck("artwork", 4)
    names = [card.id for card in deck.deck.cards[:3]]
    faces = [deck.face(name, 3.0) for name in names]
    sheet = np.full((400, 720, 3), 235, np.uint8)  # a grey scanner lid, cards in a row
    for index, face in enumerate(faces):
        sheet[60:60 + face.shape[0], 30 + index * 230:30 + index * 230 + face.shape[1]] = face
    write_image(tmp_path / "sheets" / "1-3.png", sheet)
    (tmp_path / "deck.json").write_text(deck.deck_file())
    assert main(["vision", "enroll", "--out", str(tmp_path / "r.npz"), str(tmp_path / "deck.json"),
                 str(tmp_path / "sheets")]) == 0
    references = load_references(tmp_path / "r.npz")
    assert isinstance(references, CardReferences)
    assert references.cards == sorted(names)
    # The three are near twins: their classifiers were learnt at enrollment and saved.
    assert ("learnt near twins 1/1 (3 cards) at 29 resolutions, 0.41-1.97 px/mm"
            in capsys.readouterr().out)
    assert len(references._saved) == len(COMMON_RUNGS) == 29
    assert not references.complete  # three cards of the deck's
    # The raw view (no markers) names the same cards on the sheet itself.
    reading = Pipeline(deck=deck.deck.name, references=references).read(read_image(
        tmp_path / "sheets" / "1-3.png"))
    assert reading.image_to_table is None and len(reading.cards) == 3
    named = [card.name for card in reading.cards if card.name is not None]
    assert len(named) >= 2 and set(named) <= set(names)


@pytest.mark.parametrize("deck", ["trainline", "my-game.json"])
def test_a_deck_without_references_says_to_enroll_it_in_one_line(
        deck: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Train Line's cards have no faces of ours; a user's own deck file has none either."""
    (tmp_path / "my-game.json").write_text(json.dumps(
        {"deck": "my-game", "title": "My Game", "card_mm": [57, 89],
         "cards": [{"name": "1", "number": 1}, {"name": "2", "number": 2}]}))
    image = np.full((100, 100, 3), 90, np.uint8)
    cv2.imwrite(str(tmp_path / "x.png"), image)
    argument = str(tmp_path / deck) if deck.endswith(".json") else deck
    assert main(["vision", "identify", "--deck", argument, str(tmp_path / "x.png")]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "enroll" in error and deck.removesuffix(".json") in error


def _named_at_true_corners(style: str, deck_seed: int, scene: int, level: str
                           ) -> tuple[int, int, list[tuple[str, str]]]:
    """Cards in view, cards named right and the wrong names, when naming is handed each card's
    true corners (started from either end, as outlines come)."""
    deck = styled_deck(style, deck_seed)
    references = _references(deck)
    image, truth = render_spread(deck, scene, level)
    rng = np.random.default_rng([scene, deck_seed])
    shown = right = 0
    wrong = []
    for seen in truth.cards:
        if seen.occluded:
            continue
        shown += 1
        corners = np.roll(seen.corners, 2 * int(rng.integers(0, 2)), axis=0)
        name = references.read(image, corners).name
        right += name == seen.name
        if name not in (None, seen.name):
            wrong.append((seen.name, name))
    return shown, right, wrong


@pytest.mark.parametrize(("style", "deck_seed", "scene", "least"), [
    ("artwork", 1, 301, 0.35), ("plain", 1, 301, 0.2), ("artwork", 101, 5003, 0.35),
    ("plain", 102, 5002, 0.2)])
def test_near_twins_are_told_apart_by_their_number_and_never_named_wrong(
        style: str, deck_seed: int, scene: int, least: float) -> None:
    """Cards differing only in a corner number or a small word, on an easy table, named from
    their true corners: never wrongly, and a share of them right (the plain cards were almost
    never named before the twin classifier; since the reference comparison must agree with
    it, about a quarter are); deck seeds 101 and 102 were never tuned on."""
    shown, right, wrong = _named_at_true_corners(style, deck_seed, scene, "easy")
    assert wrong == [], (style, deck_seed, scene)
    assert right >= least * shown, (style, deck_seed, scene, right, shown)


def test_a_near_twins_whole_card_bar_is_lower_only_where_its_shorter_side_is_sharp() -> None:
    """Measured reads (deck seed 1, naming at jittered true corners): a plain rose read as
    lime at 1280 x 720 (57 x 71 px, 0.81 px/mm along its shorter side) that both twin guards
    agreed on matched its whole face at 0.639; a plain iris named right at 1920 x 1080
    (1.40 x 1.09 px/mm) matched at 0.655. Foreshortened to 0.81 px/mm, a card wide in the
    picture is still held to the stricter bar."""
    assert recognize.twin_min_score((57 / 56, 71 / 87)) > 0.639 + 0.05
    assert recognize.twin_min_score((1.40, 1.09)) <= 0.655
    assert recognize.twin_min_score((1.40, 0.81)) == recognize.twin_min_score((0.81, 0.81))


def test_a_twin_classifier_names_simulated_photographs_and_rejects_a_stranger() -> None:
    deck = styled_deck("artwork", 2)
    references = _references(deck)
    group, boxes = references._group(references.names.index("artwork-2/5"))
    assert sorted(references.names[member] for member, _ in group) == [
        f"artwork-2/{n}" for n in (5, 6, 7, 8)]
    # The regions are the two corner badges (the number is printed in both).
    assert len(boxes) == 2 and boxes[0][2] < 25 and boxes[1][0] > 63 - 25
    faces = [references._grey[member] for member, _ in group]
    classifier = TwinClassifier(faces, deck.card_mm, boxes, rung((0.9, 0.9)), seed=3)
    rng = np.random.default_rng(5)
    right = 0
    for index, face in enumerate(faces):
        # Glare or a dim light where the number is can leave a photograph unclear: most are
        # named right, and the classifier is never sure of a wrong one.
        for _ in range(5):
            picture, to_picture = _photograph(face, 2.0, (0.0, 0.0, *deck.card_mm),
                                              rung((0.9, 0.9)), rng)
            corners = transform_points(to_picture, np.array(
                [[0, 0], [deck.card_mm[0], 0], [*deck.card_mm], [0, deck.card_mm[1]]],
                np.float64))
            verdict = classifier.judge(picture.astype(np.uint8), corners)
            best = int(np.argmax(verdict.likelihood))
            if best == index and verdict.typical[index]:
                right += 1
            elif best != index:
                margin = verdict.likelihood[best] - np.delete(verdict.likelihood, best).max()
                assert margin < needed_margin((0.9, 0.9)), (index, margin)
    assert right >= 12, right  # of 20; chance would name 5
    # A card of another artwork is like none of the group's photographs.
    stranger = references._grey[references.names.index("artwork-2/13")]
    picture, to_picture = _photograph(stranger, 2.0, (0.0, 0.0, *deck.card_mm),
                                      rung((0.9, 0.9)), rng)
    corners = transform_points(to_picture, np.array(
        [[0, 0], [deck.card_mm[0], 0], [*deck.card_mm], [0, deck.card_mm[1]]], np.float64))
    assert not classifier.judge(picture.astype(np.uint8), corners).typical.any()


@pytest.mark.usefixtures("full_hd")
def test_a_big_group_of_twins_keeps_enough_components_to_name_plain_words_at_1080p() -> None:
    """A plain deck's 24 twins differ in one small word: 30 principal components, all a group
    of four needs, kept too little of what tells 24 apart (``COMPONENTS_PER_TWIN``). Tuning
    deck, easy table 301 at 1920 x 1080, naming at the true corners: 21 of 22 named with 60
    components, 18 with 30, none wrong either way."""
    assert [len(group) for group in _references(styled_deck("plain", 1)).twin_groups()] == [24]
    assert twins.components(24) == 60 and twins.components(4) == twins.COMPONENTS
    shown, right, wrong = _named_at_true_corners("plain", 1, 301, "easy")
    assert wrong == [] and right >= 20, (shown, right)


def _four_twins(tmp_path: Path, complete: bool = True
                ) -> tuple[StyledDeck, CardReferences, Path, Image]:
    """An artwork deck's first four cards (one artwork, four numbers) on an easy table, their
    classifiers learnt at the resolutions the table shows them at and saved with the
    references; by default enrolled as a deck of these four alone (``complete``: no card left
    out can lie on the table, so the near rule for a deck enrolled in part, tested on its own,
    does not decide these reads)."""
    deck = styled_deck("artwork", 3)
    references = CardReferences(deck.deck.name, deck.card_mm,
                                deck.scans(card.id for card in deck.deck.cards[:4]),
                                complete=complete)
    image, truth = render_cards([card.id for card in deck.deck.cards[:4]], 2, "easy",
                                faces=deck)
    steps = sorted({rung(resolution(deck.card_mm, way)) for seen in truth.cards
                    for way in (seen.corners, np.roll(seen.corners, 2, axis=0))})
    learnt: list[int] = []
    references.learn_twins(tuple(steps),
                           progress=lambda done, groups, group: learnt.append(len(group)))
    assert learnt == [4] and len(references._classifiers) == len(steps)
    path = tmp_path / "r.npz"
    references.save(path)
    return deck, references, path, image


def _names(references: CardReferences, deck: StyledDeck, image: Image) -> list[tuple[str | None,
                                                                                     float]]:
    _, truth = render_cards([card.id for card in deck.deck.cards[:4]], 2, "easy", faces=deck)
    return [(reading.name, reading.confidence)
            for reading in (references.read(image, seen.corners) for seen in truth.cards)]


def test_saved_twin_classifiers_are_the_learnt_ones_and_name_alike(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deck, references, path, image = _four_twins(tmp_path)
    loaded = load_references(path)
    assert isinstance(loaded, CardReferences)
    assert loaded._saved.keys() == references._classifiers.keys()

    def learn(*_: object, **__: object) -> None:
        raise AssertionError("a saved classifier was learnt again")

    with monkeypatch.context() as patch:
        patch.setattr(TwinClassifier, "__init__", learn)
        assert _names(loaded, deck, image) == _names(references, deck, image)
    # Every card was seen at a saved resolution: each classifier was taken up, as saved.
    assert loaded._classifiers.keys() == references._classifiers.keys() and not loaded._saved
    for key, classifier in references._classifiers.items():
        for field, array in classifier.state().items():
            assert np.array_equal(loaded._classifiers[key].state()[field], array), field
    _, truth = render_cards([card.id for card in deck.deck.cards[:4]], 2, "easy", faces=deck)
    for seen in truth.cards:
        key = (references._canonical(references._group(0)[0]),
               rung(resolution(deck.card_mm, seen.corners)))
        mine = references._classifiers[key].judge(image, seen.corners)
        saved = loaded._classifiers[key].judge(image, seen.corners)
        assert np.array_equal(mine.likelihood, saved.likelihood)
        assert np.array_equal(mine.typical, saved.typical)
    # Saved again, those it took up and those it did not are all kept.
    loaded.save(tmp_path / "again.npz")
    again = load_references(tmp_path / "again.npz")
    assert isinstance(again, CardReferences)
    assert again._saved.keys() == references._classifiers.keys()


def test_a_caller_that_drops_what_is_no_card_gets_it_without_the_twins_checks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The deck reader drops readings under ``CARD_SCORE``, and line placings left unnamed:
    an outline straddling two cards (most of a new table's line placings) is handed back
    before the near twins' classifier and check, and a card is read as before."""
    deck, references, _, image = _four_twins(tmp_path)
    _, truth = render_cards([card.id for card in deck.deck.cards[:4]], 2, "easy", faces=deck)
    for seen in truth.cards:
        alone, dropping = (references.read(image, seen.corners, *wanted)
                           for wanted in ((), (recognize.CARD_SCORE,)))
        assert (dropping.name, dropping.confidence, dropping.score) == (
            alone.name, alone.confidence, alone.score)
        assert np.array_equal(dropping.corners, alone.corners)
        assert references.read(image, seen.corners, recognize.CARD_SCORE, True).name == alone.name
    corners = truth.cards[0].corners
    off = corners + 0.7 * (corners[1] - corners[0])
    assert references.read(image, off).score < recognize.CARD_SCORE

    def checked(*_: object, **__: object) -> None:
        raise AssertionError("an outline dropped anyway was checked as a near twin")

    monkeypatch.setattr(CardReferences, "_which_twin", checked)
    reading = references.read(image, off, recognize.CARD_SCORE)
    assert reading.name is None and reading.score < recognize.CARD_SCORE


def test_a_guess_stops_checking_twins_once_one_refuses_its_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A caller that keeps only named reads (a line's guess) gets its reading back unnamed as
    soon as one twin refuses the name (each twin more can only lower what the check agrees);
    a card read for itself is checked against every twin, for its confidence."""
    deck, references, _, image = _four_twins(tmp_path)
    _, truth = render_cards([card.id for card in deck.deck.cards[:4]], 2, "easy", faces=deck)
    named = [seen.corners for seen in truth.cards
             if references.read(image, seen.corners, recognize.CARD_SCORE, True).name]
    assert named
    checked: list[int] = []

    def refused(_: twin_check.PairCheck, *args: object) -> twin_check.Clear:
        checked.append(1)
        return twin_check.Clear(0.0, 0.0, 0.0, 0.0)

    monkeypatch.setattr(twin_check.PairCheck, "_clear", refused)
    for corners in named:
        checked.clear()
        assert references.read(image, corners).name is None and len(checked) == 3
        checked.clear()
        guess = references.read(image, corners, recognize.CARD_SCORE, True)
        assert (guess.name, guess.confidence, len(checked)) == (None, 0.0, 1)


def test_twins_learnt_on_two_cores_are_those_learnt_in_one() -> None:
    deck = styled_deck("artwork", 3)
    faces = deck.scans(card.id for card in deck.deck.cards[:4])
    alone, shared = (CardReferences(deck.deck.name, deck.card_mm, faces) for _ in range(2))
    groups: list[int] = []
    alone.learn_twins(((0, 0), (-1, 0)), workers=1)
    shared.learn_twins(((0, 0), (-1, 0)), workers=2,
                       progress=lambda done, count, group: groups.append(done))
    assert groups == [1] and shared._classifiers.keys() == alone._classifiers.keys()
    for key, classifier in alone._classifiers.items():
        for field, array in classifier.state().items():
            assert np.array_equal(shared._classifiers[key].state()[field], array), field


def _rewritten(path: Path, change: dict[str, np.ndarray]) -> Path:
    with np.load(path) as data:
        arrays = {key: data[key] for key in data.files}
    arrays.update(change)
    out = path.with_name("changed.npz")
    np.savez(out, **arrays)
    return out


def test_stale_saved_classifiers_are_learnt_again(tmp_path: Path) -> None:
    """Classifiers saved for other faces (or by another simulation) are left out, and naming
    learns its own on first use."""
    deck, references, path, image = _four_twins(tmp_path)
    loaded = load_references(_rewritten(path, {"twins_of": np.array("0" * 64)}))
    assert isinstance(loaded, CardReferences) and not loaded._saved
    assert _names(loaded, deck, image) == _names(references, deck, image)
    assert loaded._classifiers.keys() == references._classifiers.keys()


OLD_FORMAT = Path(__file__).resolve().parent / "fixtures" / "vision" / "twins_056fc93.npz"
"""References of ``_four_twins``' faces written by enrollment before the ladder of rungs (commit
056fc93: a classifier at 0.9 x 0.9 px/mm keyed in tenths, float32 axes; repacked compressed)."""


def test_references_saved_before_the_ladder_learn_their_classifiers_again(
        tmp_path: Path) -> None:
    # A file this old does not say whether the deck was enrolled whole: taken as in part.
    deck, references, _, image = _four_twins(tmp_path, complete=False)
    old = load_references(OLD_FORMAT)
    assert isinstance(old, CardReferences) and not old._saved
    # The same faces: only the classifiers' version differs, and they are learnt again.
    assert old.fingerprint() == references.fingerprint()
    with np.load(OLD_FORMAT) as data:
        assert str(data["twins_of"]) != old.fingerprint() and len(data["twins"]) == 1
    assert _names(old, deck, image) == _names(references, deck, image)


def test_a_big_groups_classifier_is_saved_whole_and_one_of_the_model_before_learnt_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A plain deck's 24 twins keep 60 components, and a references file keeps them all; a
    file whose classifiers an earlier ``MODEL`` learnt (30 components for any group) loads, and
    they are learnt again on first use."""
    deck = styled_deck("plain", 2)
    references = _references(deck)
    references.learn_twins(((0, 0),), workers=1)
    references.save(tmp_path / "r.npz")
    loaded = load_references(tmp_path / "r.npz")
    assert isinstance(loaded, CardReferences) and len(loaded._saved) == 1
    (state,) = loaded._saved.values()
    assert state["axes"].shape[0] == 60
    with monkeypatch.context() as patch:
        patch.setattr(recognize, "MODEL", twins.MODEL - 1)
        earlier = load_references(tmp_path / "r.npz")
    assert isinstance(earlier, CardReferences) and not earlier._saved


@pytest.mark.parametrize("damage", ["shape", "key", "missing", "nan", "truncated"])
def test_damaged_saved_classifiers_are_refused_in_one_line(
        damage: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck, _, path, image = _four_twins(tmp_path)
    with np.load(path) as data:
        axes = data["twin0_axes"]
        keys = [str(key) for key in data["twins"]]
    if damage == "truncated":
        damaged = tmp_path / "cut.npz"
        damaged.write_bytes(path.read_bytes()[: path.stat().st_size * 2 // 3])
    else:
        damaged = _rewritten(path, {
            "shape": {"twin0_axes": axes[:, :-1]},
            "key": {"twins": np.array([keys[0].replace("3:0", "9:0"), *keys[1:]])},
            "missing": {"twins": np.array([*keys, "0:0 1:0 2:0 3:0@12x12"])},
            "nan": {"twin0_axes": np.full_like(axes, np.nan)},
        }[damage])
    (tmp_path / "deck.json").write_text(deck.deck_file())
    write_image(tmp_path / "table.png", image)
    assert main(["vision", "identify", str(tmp_path / "table.png"), "--deck",
                 str(tmp_path / "deck.json"), "--references", str(damaged)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and str(damaged) in error, error


@pytest.fixture
def full_hd(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables photographed by a 1920 x 1080 webcam: every card at 1.5 times the px/mm
    (``benchmarks/vision_benchmark.py --scale 1.5``)."""
    monkeypatch.setattr(scene, "FRAME_SIZE", (1920, 1080))
    monkeypatch.setattr(scene, "CANVAS_PX_PER_MM", 2.4)


@pytest.mark.usefixtures("full_hd")
def test_twins_learnt_at_enrollment_serve_a_1080p_webcam(monkeypatch: pytest.MonkeyPatch) -> None:
    deck = styled_deck("artwork", 3)
    names = [card.id for card in deck.deck.cards[:4]]
    # A deck of these four alone (as in ``_four_twins``).
    references = CardReferences(deck.deck.name, deck.card_mm, deck.scans(names), complete=True)
    references.learn_twins()
    image, truth = render_cards(names, 1, "easy", faces=deck)
    # Past the top of the ladder enrollment learnt for a 1280 x 720 webcam (rung 1).
    assert all(max(rung(resolution(deck.card_mm, card.corners))) >= 2 for card in truth.cards)

    def learn(*_: object, **__: object) -> None:
        raise AssertionError("a classifier was learnt on first sight")

    monkeypatch.setattr(TwinClassifier, "__init__", learn)
    readings = [references.read(image, card.corners).name for card in truth.cards]
    assert set(readings) - {None} <= set(names) and readings.count(None) <= 1
    assert all(name in (None, card.name) for name, card in zip(readings, truth.cards,
                                                               strict=True))


@pytest.mark.usefixtures("full_hd")
def test_a_whole_deck_names_a_broken_track_beside_the_whole_track_of_its_number() -> None:
    """At 1080p the whole track of a broken track's number reaches the shortlist, and the two
    share most of their look: a perfect read lies short of ``MIN_STRANGER_BALANCE``."""
    deck = styled_deck("rollecate", 1)
    names = ["rollecate/broken-4", "rollecate/track-4", "rollecate/broken-2", "rollecate/track-2"]
    image, truth = render_cards(names, 1, "easy", faces=deck)
    whole = CardReferences(deck.deck.name, deck.card_mm, deck.scans(), complete=True)
    assert [whole.read(image, card.corners).name for card in truth.cards] == names
    # Enrolled in part, a left-out card could be the one it shares its look with: the
    # stricter rule stays, and leaves these unnamed.
    part = CardReferences(deck.deck.name, deck.card_mm, deck.scans())
    readings = [part.read(image, card.corners).name for card in truth.cards]
    assert readings[:2] == [None, None] and set(readings) - {None} <= set(names)


@pytest.mark.usefixtures("full_hd")
def test_a_whole_deck_names_a_sharp_twin_unlike_its_simulated_photographs() -> None:
    """At 1080p on an easy table the 7 lies further from its twin classifier's simulated
    photographs than ``typical`` allows, by a margin many times what naming needs: enrolled
    whole the deck holds its own reference, so it is named; enrolled in part it stays unnamed
    (a card left out may look like none of them)."""
    deck = styled_deck("artwork", 1)
    names = [f"artwork-1/{number}" for number in (5, 6, 7, 8)]
    image, truth = render_cards(names, 1, "easy", faces=deck)
    whole = CardReferences(deck.deck.name, deck.card_mm, deck.scans(), complete=True)
    assert [whole.read(image, card.corners).name for card in truth.cards] == names
    # Enrolled in part the 7 stays unnamed. The near rule for a deck enrolled in part also
    # leaves the 5 and the 8 (each lies 0.10 and 0.21 near the named twin where it differs
    # from the 8 and the 5, alike there at 0.96; cards left out of a deck named as a twin lay
    # up to 0.28), but names none wrong.
    part = CardReferences(deck.deck.name, deck.card_mm, deck.scans())
    readings = [part.read(image, card.corners).name for card in truth.cards]
    assert readings[2] is None and names[1] in readings
    assert all(name in (None, right) for name, right in zip(readings, names, strict=True))


def test_whether_the_whole_deck_was_enrolled_is_saved_with_it(tmp_path: Path) -> None:
    deck = styled_deck("bordered", 2)
    for complete in (False, True):
        CardReferences(deck.deck.name, deck.card_mm, deck.scans(),
                       complete=complete).save(tmp_path / "r.npz")
        loaded = load_references(tmp_path / "r.npz")
        assert isinstance(loaded, CardReferences) and loaded.complete == complete
    # A file written before it was kept: taken as enrolled in part (the stricter rule).
    with np.load(tmp_path / "r.npz") as data:
        arrays = {key: data[key] for key in data.files if key != "complete"}
    np.savez(tmp_path / "old.npz", **arrays)
    old = load_references(tmp_path / "old.npz")
    assert isinstance(old, CardReferences) and not old.complete


def test_enrolling_every_card_of_a_deck_file_says_so(tmp_path: Path) -> None:
    deck = styled_deck("bordered", 2)
    (tmp_path / "deck.json").write_text(deck.deck_file())
    scans = tmp_path / "scans"
    for card in deck.deck.cards:
        write_image(scans / f"{card.name}.png", deck.face(card.id, 4.0))
    whole = enroll_faces(deck_from(str(tmp_path / "deck.json")), scans)
    assert whole.complete
    (scans / f"{deck.deck.cards[0].name}.png").unlink()
    assert not enroll_faces(deck_from(str(tmp_path / "deck.json")), scans).complete


def test_line_placings_straddling_a_card_read_surely_are_not_named_and_change_no_card(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A line is placed a pitch from every pose found on it, and most of those placings
    straddle two cards: where a card read surely covers one in part, it is not named at all,
    and the table reads card for card as when every placing is named."""
    deck = styled_deck("artwork", 1)
    references = _references(deck)
    image, _ = render_spread(deck, 300, "easy")
    named_at: list[Outline] = []
    naming = DeckReader._named

    def spied(reader: DeckReader, colour: Image, outline: Outline, *rest: Matrix
              ) -> SeenCard | None:
        named_at.append(outline)
        return naming(reader, colour, outline, *rest)

    monkeypatch.setattr(DeckReader, "_named", spied)
    reads = []
    for leaving_out in (True, False):
        if not leaving_out:
            monkeypatch.setattr(deck_reader, "_straddling", lambda *_: False)
        named_at.clear()
        pipeline = Pipeline(deck=deck.deck.name, references=references)
        pipeline.read(image)
        assert pipeline._deck_reader is not None
        reads.append((len(named_at), [(card.reading.name, card.corners)
                                      for card in pipeline._deck_reader._last]))
    (fewer, cards), (every, all_named) = reads
    assert fewer <= every - 10
    assert [name for name, _ in cards] == [name for name, _ in all_named]
    assert all(np.array_equal(mine, theirs) for (_, mine), (_, theirs)
               in zip(cards, all_named, strict=True))


@pytest.mark.usefixtures("full_hd")
def test_a_near_twin_placed_where_its_face_repeats_itself_needs_a_surer_match(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Naming's slide can lock onto a Rollecate track a sleeper's step off its place, where the
    whole card still matches at the twins' bar: there the pips of a chaos-1 leaned to
    chaos-2's (tuning table 301, easy, as ``vision_benchmark.py --naming`` jitters its
    corners). A slide that fits another place nearly as well is unsure, and a twin it placed
    needs a surer whole-card match."""
    job = ("rollecate", 1, 301, "easy")
    counts = name_styled(job)
    assert counts["wrong"] == 0 and counts["correct"] >= 20, counts
    monkeypatch.setattr(recognize, "SLIDE_UNSURE_MARGIN", 0.0)
    unguarded = name_styled(job)
    assert unguarded["wrong"] == 1 and unguarded["correct"] == counts["correct"], unguarded
