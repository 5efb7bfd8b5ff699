"""The reference check of near twins (``vision.twin_check``): the card compared with both
twins' references where they differ, blurred as the camera that saw it blurs."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import scene, twin_check
from vision.imaging import Image, Points
from vision.recognize import CardReferences
from vision.scene import difficulty, render_cards
from vision.styles import styled_deck
from vision.twins import resolution

TWINS = 8
"""Near twins photographed together (one row of a rendered table)."""


def _twins_seen(references: CardReferences, factor: float, blur: float, seed: int,
                level: str) -> tuple[Image, list[tuple[int, list[int], Points]]]:
    """Trains-look near twins (one track, other numbers) photographed by a camera of
    ``factor`` times 1280 x 720 blurring by ``blur`` of its own pixels, on a table of
    ``level`` without glare, shadows or hands: the frame and, for each card, its reference,
    its twins' and its true corners."""
    group, _ = references._group(references.names.index("trains/10"))
    members = sorted(reference for reference, turned in group if not turned)[:TWINS]
    chosen = replace(difficulty(level), blur=(blur, blur), glare=0.0, shadow=0.0, hands=0.0)
    with scene.scaled_camera(factor):
        image, truth = render_cards([references.names[member] for member in members], seed,
                                    chosen, faces=styled_deck("trains", 1))
    return image, [(member, [other for other in members if other != member], card.corners)
                   for member, card in zip(members, truth.cards, strict=True)]


def _cleared(check: twin_check.PairCheck, image: Image,
             cards: list[tuple[int, list[int], Points]]) -> tuple[int, int]:
    """Of every card read as itself against each of its twins, how many the check clears;
    and of every card read as one of its twins against itself, how many."""
    right = wrong = 0
    for mine, others, corners in cards:
        for other in others:
            right += next(check.each(image, corners, mine, [(other, False)])).weighed >= 1
            wrong += next(check.each(image, corners, other, [(mine, False)])).weighed >= 1
    return right, wrong


def _enrolled_whole(style: str) -> CardReferences:
    """The tuning deck (seed 1) of a look, every card enrolled."""
    deck = styled_deck(style, 1)
    return CardReferences(deck.deck.name, deck.card_mm, deck.scans(), complete=True)


@pytest.fixture(scope="module")
def trains() -> CardReferences:
    return _enrolled_whole("trains")


@pytest.mark.parametrize(("factor", "seed"), [(1.0, 3), (1.5, 4)])
def test_the_check_measures_the_cameras_blur_in_its_own_pixels(
        trains: CardReferences, factor: float, seed: int) -> None:
    """A webcam blurs by so many of its own pixels, whatever the frame size: the check
    measures it on the card (1.1 px and more for a camera of 1.6 px, 1.1 and less for one of
    0.5), at 1280 x 720 and 1920 x 1080 alike."""
    for blur, lowest, highest in ((0.5, 0.5, 1.1), (1.6, 1.1, 2.0)):
        image, cards = _twins_seen(trains, factor, blur, seed, "easy")
        measured = [next(trains._pairs.each(image, corners, mine, [(other, False)])).blur
                    for mine, others, corners in cards for other in others[:2]]
        assert lowest <= float(np.median(measured)) <= highest, (factor, seed, blur, measured)


@pytest.mark.parametrize(("factor", "seed", "least"), [(1.0, 5, 0.75), (1.5, 6, 0.9)])
def test_a_twin_seen_through_a_blurry_camera_clears_the_check_and_never_as_its_twin(
        trains: CardReferences, factor: float, seed: int, least: float,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Through a hard table's webcam (1.6 px of blur, its noise, tilt and JPEG) a right read
    clears the check against most twins, and the card read as one of its twins never does.
    With the references blurred by a fixed 0.6 px of the camera (the check before) fewer
    cleared: references sharper than the card lie further from it than its own twin does (at
    1920 x 1080 the fitted blur clears 54 of 56, a fixed 0.6 px 52; the fitted blur cleared 56
    before patches lying together were read as one region: the waist and side of a
    Trains-look 18 read against its 10 are one region now, and lean 0.05 to the 10 on the
    sharpest references, which vetoes the fitted blur)."""
    image, cards = _twins_seen(trains, factor, 1.6, seed, "hard")
    pairs = TWINS * (TWINS - 1)
    right, wrong = _cleared(trains._pairs, image, cards)
    assert wrong == 0 and right >= least * pairs, (factor, seed, right, pairs)
    monkeypatch.setattr(twin_check, "CAMERA_BLURS", (0.6,))
    fixed = twin_check.PairCheck(trains.card_mm, trains._grey, trains._sharp,
                                 trains._pairs._px_per_mm)
    fixed_right, _ = _cleared(fixed, image, cards)
    assert fixed_right < right, (factor, seed, right, fixed_right)


def test_a_card_seen_coarser_along_one_side_is_blurred_as_each_side_is_seen(
        trains: CardReferences) -> None:
    """On a steeply tilted table a card facing the camera is seen at about half the px/mm
    down it as across it: the camera's blur covers twice the millimetres down it. With the
    references blurred and judged tellable by the px/mm across alone, 42 of these 56 right
    reads cleared and one card cleared as its twin."""
    image, cards = _twins_seen(trains, 1.0, 1.6, 9, "hard")
    for _, _, corners in cards:
        across, down = resolution(trains.card_mm, corners)
        assert down < 0.6 * across, (across, down)
    right, wrong = _cleared(trains._pairs, image, cards)
    assert wrong == 0 and right >= 0.85 * TWINS * (TWINS - 1), (right, wrong)


def test_a_card_leaning_to_the_other_twin_on_the_sharpest_references_is_not_cleared(
        trains: CardReferences, monkeypatch: pytest.MonkeyPatch) -> None:
    """Blurred enough, two twins correlate all but 1 where they differ and noise seems a
    balance (a full-pipeline artwork 22 lay 3.6-5.5 balances towards 21 at 2 px, and was
    named so): what the sharpest references say against the named twin stands."""
    image, cards = _twins_seen(trains, 1.5, 0.5, 7, "easy")
    mine, others, corners = cards[0]
    towards_mine = [(100.0, 0.9, 0.7, 0.95)]  # 2 balances towards mine, at a blur of 2 px
    for sharp, cleared in (((100.0, 0.6, 0.8, 0.5),), False), (((100.0, 0.8, 0.6, 0.5),), True):
        monkeypatch.setattr(twin_check.PairCheck, "_regions_read",
                            lambda *_, s=list(sharp): (2.0, towards_mine, s, [0.0]))
        clear = next(trains._pairs.each(image, corners, mine, [(others[0], False)]))
        assert (clear.weighed >= 1 and clear.worst >= 1) == cleared, (sharp, clear)
        assert clear.blur == 2.0


def test_what_the_check_keeps_for_the_next_card_is_bounded_and_reads_the_same(
        trains: CardReferences, monkeypatch: pytest.MonkeyPatch) -> None:
    """The references' blurred maps follow each card's resolution, so a long game brings new
    ones without end (unbounded, they held 600 MB after 18 Trains-look tables at 1920 x
    1080): only the latest ``KEPT_READS`` are kept, and a check that let the rest go judges
    every card as one that kept them all."""
    image, cards = _twins_seen(trains, 1.0, 1.0, 8, "medium")
    kept_all = twin_check.PairCheck(trains.card_mm, trains._grey, trains._sharp,
                                    trains._pairs._px_per_mm)
    before = [list(kept_all.each(image, corners, mine, [(other, False) for other in others]))
              for mine, others, corners in cards]
    monkeypatch.setattr(twin_check, "KEPT_READS", 5)
    bounded = twin_check.PairCheck(trains.card_mm, trains._grey, trains._sharp,
                                   trains._pairs._px_per_mm)
    after = [list(bounded.each(image, corners, mine, [(other, False) for other in others]))
             for mine, others, corners in cards]
    assert after == before
    assert len(bounded._blur_maps._kept) == len(bounded._pair_maps._kept) == 5
    assert len(kept_all._pair_maps._kept) > 5


def test_one_slide_against_both_twins_adds_the_slides_against_each(
        trains: CardReferences) -> None:
    """A region of the card is slid once per blur over both twins' maps standardised and
    added: its normalised correlation there, times their length, is the sum of its
    correlations with each twin (which chooses the blur and where the region lies)."""
    check = trains._pairs
    mine, theirs = (trains.names.index(name) for name in ("trains/10", "trains/11"))
    box = check._region(mine, theirs, False)[0]
    grown = check.grown(mine, box)
    blur = (1.5, 2.0)
    pair = check._pair(mine, theirs, False, box, grown, blur)
    ours, yours = (check._blurred(reference, False, grown, blur) for reference in (mine, theirs))
    rng = np.random.default_rng(3)
    card = np.pad(0.6 * ours + 0.4 * yours, 4, mode="edge") + rng.normal(
        0.0, 2.0, (ours.shape[0] + 8, ours.shape[1] + 8)).astype(np.float32)
    each = sum(cv2.matchTemplate(card, twin, cv2.TM_CCOEFF_NORMED) for twin in (ours, yours))
    both = cv2.matchTemplate(card, pair.both, cv2.TM_CCOEFF_NORMED) * pair.reach
    assert np.allclose(both, each, atol=1e-4)
    assert np.unravel_index(np.argmax(both), both.shape) == np.unravel_index(
        np.argmax(each), each.shape)


@pytest.fixture(scope="module")
def artwork() -> CardReferences:
    return _enrolled_whole("artwork")


@pytest.mark.parametrize("pair", [("artwork-1/25", "artwork-1/28"),
                                  ("artwork-1/22", "artwork-1/23")])
def test_a_pair_too_alike_across_is_told_where_the_camera_sees_the_card_finer_down_it(
        artwork: CardReferences, pair: tuple[str, str]) -> None:
    """Full-bleed twins differing by one digit, seen at 0.95 px/mm across and 1.25 down (a
    card lying sideways on an easy table): judged at the px/mm across along both sides they
    were untellable and the right twin was left null (tuning deck, 1080p, easy: 10 of the 28
    cards left null). Through a sharp camera the check clears the right twin and refuses the
    other; through 1.8 px of blur the pair stays untellable."""
    references = artwork
    mine, theirs = (references.names.index(name) for name in pair)
    width, height = references.card_mm
    face = references.faces[mine]
    corners = np.array([[40, 30], [40 + 0.95 * width, 30], [40 + 0.95 * width, 30 + 1.25 * height],
                        [40, 30 + 1.25 * height]])
    flat = np.array([[0, 0], [face.shape[1], 0], [face.shape[1], face.shape[0]],
                     [0, face.shape[0]]], np.float32)
    laid = cv2.warpPerspective(face, cv2.getPerspectiveTransform(flat, corners.astype(
        np.float32)), (round(80 + width), round(60 + 1.25 * height)), flags=cv2.INTER_AREA,
        borderValue=(60, 90, 40))
    rng = np.random.default_rng(1)
    for blur, told in ((0.6, True), (1.8, False)):
        image = np.clip(cv2.GaussianBlur(laid, (0, 0), blur) + rng.normal(0, 2, laid.shape),
                        0, 255).astype(np.uint8)
        check = twin_check.PairCheck(references.card_mm, references._grey, references._sharp,
                                     references._pairs._px_per_mm)
        right = next(check.each(image, corners, mine, [(theirs, False)]))
        wrong = next(check.each(image, corners, theirs, [(mine, False)]))
        if told:
            assert right.weighed >= 1 and wrong.weighed < 1, (blur, right, wrong)
        else:
            assert right.weighed == wrong.weighed == 0, (blur, right, wrong)


def test_twins_the_camera_sees_differ_faintly_need_as_much_more_balance(
        artwork: CardReferences, monkeypatch: pytest.MonkeyPatch) -> None:
    """Full-bleed 33 and 35 seen at 1.05 px/mm across and 0.75 down (a hard table's tilt):
    through a sharp camera they differ by far more than ``TELL_APART_GREY``, through 1.7 px of
    blur by about 10 grey levels, and there a quarter of a pixel's move of the outline swung
    the check by several balances (a 33 of a fresh deck was named 35 at 1280 x 720, both
    guards agreeing). The same lean (1.5 of what a clear pair needs) clears the check through
    the sharp camera and not through the blurred one."""
    mine, theirs = (artwork.names.index(name) for name in ("artwork-1/35", "artwork-1/33"))
    width, height = artwork.card_mm
    corners = np.array([[40, 30], [40 + 1.05 * width, 30], [40 + 1.05 * width, 30 + 0.75 * height],
                        [40, 30 + 0.75 * height]])
    image = np.zeros((round(60 + 0.75 * height), round(80 + width), 3), np.uint8)
    lean = [(100.0, 0.9, 0.9 - 2 * 0.05 * 1.5 * twin_check.MIN_BALANCE, 0.95)]
    for blur, cleared in ((0.5, True), (1.7, False)):
        monkeypatch.setattr(twin_check.PairCheck, "_regions_read",
                            lambda *_, b=blur: (b, lean, lean, [0.0]))
        check = twin_check.PairCheck(artwork.card_mm, artwork._grey, artwork._sharp,
                                     artwork._pairs._px_per_mm)
        clear = next(check.each(image, corners, mine, [(theirs, False)]))
        assert (clear.weighed >= 1) == cleared, (blur, clear)


@pytest.mark.parametrize(("across", "down", "cleared"), [(1.05, 1.2, True), (0.75, 1.2, False)])
def test_a_card_must_lie_near_the_named_twin_against_what_a_true_copy_reaches(
        artwork: CardReferences, monkeypatch: pytest.MonkeyPatch, across: float, down: float,
        cleared: bool) -> None:
    """A card left out of enrollment lies off the line between two enrolled twins: in their
    region it can lean well towards one (a full-bleed 33 towards 35, away from 34) and still
    lie far from it. Short of what a true copy would reach there (``_expected``) by twice the
    twins' distance, it is not near (``Clear.near`` below 0) however it leans; a card 0.4
    near is near enough at 1 px/mm across, not below ``LOW_RESOLUTION`` (a 33 seen at 0.74
    px/mm across lay 0.44 near 35 and was named)."""
    mine, theirs = (artwork.names.index(name) for name in ("artwork-1/35", "artwork-1/34"))
    width, height = artwork.card_mm
    corners = np.array([[40, 30], [40 + across * width, 30],
                        [40 + across * width, 30 + down * height], [40, 30 + down * height]])
    image = np.zeros((round(60 + down * height), round(80 + across * width), 3), np.uint8)
    # Leaning 1.5 balances towards 35, at 0.85 where a true copy would reach 0.95: 0.5 less
    # 0.1 over twice the twins' distance (1 - 0.95) is -0.5 near.
    leaning = [(100.0, 0.85, 0.7, 0.95)]
    monkeypatch.setattr(artwork._pairs, "in_part", True)
    monkeypatch.setattr(twin_check.PairCheck, "_regions_read",
                        lambda *_: (0.5, leaning, leaning, [0.95]))
    clear = next(artwork._pairs.each(image, corners, mine, [(theirs, False)]))
    assert clear.worst >= 1 and clear.near <= 0, clear
    # 0.4 near: 0.01 short of a true copy's 0.86.
    monkeypatch.setattr(twin_check.PairCheck, "_regions_read",
                        lambda *_: (0.5, leaning, leaning, [0.86]))
    clear = next(artwork._pairs.each(image, corners, mine, [(theirs, False)]))
    assert clear.worst >= 1 and (clear.near >= 1) == cleared, (across, clear)


def test_a_deck_enrolled_whole_is_not_asked_how_near(artwork: CardReferences,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """``Clear.near`` guards a deck enrolled in part only: a deck enrolled whole never reads
    it (naming unchanged card for card, and no time spent on it)."""
    mine, theirs = (artwork.names.index(name) for name in ("artwork-1/35", "artwork-1/34"))
    width, height = artwork.card_mm
    corners = np.array([[40, 30], [40 + width, 30], [40 + width, 30 + height],
                        [40, 30 + height]], np.float64)
    image = np.zeros((round(60 + height), round(80 + width), 3), np.uint8)
    asked: list[int] = []

    def expected(*_: object) -> float:
        asked.append(1)
        return 0.0

    monkeypatch.setattr(twin_check, "_expected", expected)
    clear = next(artwork._pairs.each(image, corners, mine, [(theirs, False)]))
    assert clear.near == np.inf and not asked, clear
    monkeypatch.setattr(artwork._pairs, "in_part", True)
    clear = next(artwork._pairs.each(image, corners, mine, [(theirs, False)]))
    assert clear.near < np.inf and asked, clear


def test_patches_lying_together_are_one_region_and_those_apart_stay_apart() -> None:
    near = twin_check.CONTEXT_PX - 1
    boxes = [(0, 0, 10, 10), (10 + near, 0, 20 + near, 10), (40, 40, 50, 50),
             (20 + 2 * near, 5, 30 + 2 * near, 12)]
    assert twin_check._merged(boxes) == [(0, 0, 30 + 2 * near, 12), (40, 40, 50, 50)]
    apart = [(0, 0, 10, 10), (10 + twin_check.CONTEXT_PX, 0, 20 + twin_check.CONTEXT_PX, 10)]
    assert twin_check._merged(apart) == apart


@pytest.fixture(scope="module")
def plain() -> CardReferences:
    return _enrolled_whole("plain")


@pytest.mark.parametrize("pair", [("plain-1/nut", "plain-1/mint"),
                                  ("plain-1/elm", "plain-1/rose")])
def test_two_words_are_read_as_one_region(plain: CardReferences, artwork: CardReferences,
                                          pair: tuple[str, str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Where two plain words differ splits into patches (the letters where they agree drop
    out); each patch aligned alone on what surrounds it, the other patch's letters, let a nut's
    'ut' slide onto mint's 'nt' (tuning table 304, medium, 1920 x 1080: the nut leaned to mint;
    every word card of tables 300-305 left null was one the check refused). Read as one region,
    the right word clears the check by far and the other is refused; read in patches the right
    one lies a balance or more short of that. In a deck enrolled in part each patch stays
    alone, and an artwork's two corner badges lie far apart and stay two regions."""
    mine, theirs = (plain.names.index(name) for name in pair)
    width, height = plain.card_mm
    face = plain.faces[mine]
    corners = np.array([[40, 30], [40 + 1.2 * width, 30], [40 + 1.2 * width, 30 + 0.85 * height],
                        [40, 30 + 0.85 * height]])
    flat = np.array([[0, 0], [face.shape[1], 0], [face.shape[1], face.shape[0]],
                     [0, face.shape[0]]], np.float32)
    laid = cv2.warpPerspective(face, cv2.getPerspectiveTransform(flat, corners.astype(np.float32)),
                               (round(80 + 1.2 * width), round(60 + 0.85 * height)),
                               flags=cv2.INTER_AREA, borderValue=(60, 90, 40))
    seed = 11
    image = np.clip(cv2.GaussianBlur(laid, (0, 0), 1.5)
                    + np.random.default_rng(seed).normal(0, 3, laid.shape), 0, 255).astype(np.uint8)

    def read(in_part: bool) -> tuple[float, float, int]:
        check = twin_check.PairCheck(plain.card_mm, plain._grey, plain._sharp,
                                     plain._pairs._px_per_mm, in_part=in_part)
        right = next(check.each(image, corners, mine, [(theirs, False)]))
        wrong = next(check.each(image, corners, theirs, [(mine, False)]))
        return right.weighed, wrong.weighed, len(check._region(mine, theirs, False))

    right, wrong, regions = read(False)
    assert regions == 1 and right >= 2 and wrong <= -2, (seed, right, wrong, regions)
    parted, _, regions = read(True)
    assert regions > 1 and parted < right - 1, (seed, right, parted, regions)
    badges = artwork.names.index("artwork-1/33"), artwork.names.index("artwork-1/35")
    assert len(artwork._pairs._region(*badges, False)) == 2
