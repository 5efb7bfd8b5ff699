"""Finding cards of any deck by their outline on a marked table: searching again only round
what changed, and cards the whole-table search used to miss."""

import cv2
import numpy as np
import pytest

from vision.deck_reader import DeckReader, SeenCard
from vision.deck_scene import render_spread, spread_layout
from vision.imaging import Image, Matrix, transform_points
from vision.markers import TableFinder
from vision.outline import (
    EARLY_SUPPORT,
    REFINE_STEPS,
    TOPDOWN_PX_PER_MM,
    Outline,
    OutlineFinder,
    _colour_gradient,
    _Gradient,
    _Poses,
)
from vision.recognize import CardReferences
from vision.scene import LaidCard, Look, difficulty, lay_table, photograph
from vision.styles import StyledDeck, styled_deck
from vision.table import Placement


def _references(deck: StyledDeck) -> CardReferences:
    """References enrolled from flat scans (6 px/mm) of the deck's faces."""
    return CardReferences(deck.deck.name, deck.card_mm, deck.scans(), complete=True)


def _homography(frame: Image) -> Matrix:
    table = TableFinder()
    table.update(frame)
    assert table.homography is not None
    return table.homography


def _named(cards: list[SeenCard]) -> list[tuple[str, np.ndarray]]:
    return sorted((card.reading.name, card.table_corners.mean(axis=0)) for card in cards
                  if card.reading.name is not None and card.table_corners is not None)


@pytest.mark.parametrize("seed", [2100, 2101])
def test_a_card_laid_then_taken_is_searched_for_round_it_only_and_reads_as_a_fresh_search(
        seed: int) -> None:
    deck = styled_deck("bordered", 1)
    references = _references(deck)
    look = Look.draw(seed, difficulty("easy"))
    laid = spread_layout(deck, seed)
    without, _ = photograph(lay_table(laid[:-1], look, faces=deck), 0, hands=0)
    with_card, _ = photograph(lay_table(laid, look, faces=deck), 0, hands=0)
    to_table = _homography(without)
    reader = DeckReader(references)
    reader.read(without, to_table)
    width, height = reader.finder.size
    for frame, present in ((with_card, True), (without, False)):
        cards = reader.read(frame, to_table)
        assert reader.searched is not None, seed  # only round the change...
        assert sum((r - left) * (b - top) for left, top, r, b in reader.searched
                   ) < 0.3 * width * height, seed
        fresh = DeckReader(references).read(frame, to_table)
        # ...and yet the same cards, named the same, where a whole new search puts them.
        kept, found = _named(cards), _named(fresh)
        assert [name for name, _ in kept] == [name for name, _ in found], seed
        assert all(np.hypot(*(a - b)) < 1.0 for (_, a), (_, b) in zip(kept, found, strict=True))
        last = np.array(laid[-1].placement.centre)
        assert any(name == laid[-1].name and np.hypot(*(centre - last)) < 5
                   for name, centre in kept) == present, seed


def test_a_frame_that_changed_everywhere_is_searched_whole() -> None:
    deck = styled_deck("bordered", 1)
    look = Look.draw(2102, difficulty("easy"))
    table = lay_table(spread_layout(deck, 2102), look, faces=deck)
    frame, _ = photograph(table, 0, hands=0)
    to_table = _homography(frame)
    reader = DeckReader(_references(deck))
    cards = reader.read(frame, to_table)
    darker = (frame * 0.7).astype(np.uint8)  # the light went down
    assert _named(reader.read(darker, to_table)) != [] and reader.searched is None
    assert len(cards) > 5


def test_a_card_partly_covered_for_a_moment_is_found_whole_again() -> None:
    """The search window round a small change holds every card the change touches whole."""
    deck = styled_deck("bordered", 1)
    references = _references(deck)
    frame, truth = photograph(lay_table(spread_layout(deck, 2103), Look.draw(
        2103, difficulty("easy")), faces=deck), 0, hands=0)
    to_table = _homography(frame)
    reader = DeckReader(references)
    before = _named(reader.read(frame, to_table))
    shown = [card for card in truth.cards if not card.occluded]
    covered = frame.copy()
    for card in (shown[0], shown[-1]):  # a fingertip on a corner of two cards
        x, y = card.corners[0]
        cv2.circle(covered, (round(x), round(y)), 9, (40, 60, 90), -1)
    reader.read(covered, to_table)
    assert reader.searched is not None
    after = _named(reader.read(frame, to_table))
    assert reader.searched is not None
    assert [name for name, _ in after] == [name for name, _ in before]
    assert len(before) >= len(shown) // 2


def _outlines_at(deck: StyledDeck, laid: list[LaidCard], seed: int) -> tuple[
        list[np.ndarray], list[Outline]]:
    """The laid cards' centres and the outlines found on their photograph (easy table)."""
    frame, _ = photograph(lay_table(laid, Look.draw(seed, difficulty("easy")), faces=deck), 0,
                          hands=0)
    outlines = OutlineFinder(deck.card_mm).find(frame, _homography(frame), 0.6)
    return [np.array(card.placement.centre) for card in laid], outlines


@pytest.mark.parametrize("seed", [40, 41, 42])
def test_a_line_of_touching_cards_alike_is_found_card_by_card(seed: int) -> None:
    """Plain cards laid edge to edge show no edge between them: the line's ends show three
    sides, the cards between only the two sides the line runs along."""
    deck = styled_deck("plain", 1)
    rng = np.random.default_rng(seed)
    width = deck.card_mm[0]
    start = rng.uniform((200, 250), (330, 450))
    turn = float(rng.uniform(-20, 20))
    step = np.array([np.cos(np.radians(turn)), np.sin(np.radians(turn))]) * width
    names = [card.id for card in deck.deck.cards]
    laid = [LaidCard(names[index], Placement(tuple(start + index * step), turn))
            for index in range(6)]
    centres, outlines = _outlines_at(deck, laid, seed)
    for centre in centres:
        assert min(np.hypot(*(np.array(o.centre) - centre)) for o in outlines) < 4, seed
    # Nothing beyond the line's ends, where its sides stop.
    beyond = [start - step, start + 6 * step]
    assert all(np.hypot(*(np.array(o.centre) - spot)) > width / 2 for o in outlines
               for spot in beyond), seed


def test_a_loose_card_on_a_busy_cloth_is_found_whatever_its_turn() -> None:
    """Rollecate's track cards on a wood cloth: the cloth's grain swamps the edge directions
    round a card, and the rails and sleepers pull its vote peak off centre. (Its broken
    track cards, brown on the brown cloth, show too little of their outline still.)"""
    deck = styled_deck("rollecate", 1)
    names = [card.id for card in deck.deck.cards if "broken" not in card.id]
    laid = [LaidCard(names[index % len(names)],
                     Placement((180.0 + 180 * (index % 4), 200.0 + 260 * (index // 4)),
                               23.0 + 37 * index)) for index in range(8)]
    for seed in (301, 303, 307):
        centres, outlines = _outlines_at(deck, laid, seed)
        found = sum(min((np.hypot(*(np.array(o.centre) - centre)) for o in outlines),
                        default=np.inf) < 4 for centre in centres)
        assert found >= 7, (seed, found)


def test_loose_cards_whose_vote_peaks_rank_below_those_inside_the_cards_found_are_found() -> None:
    """Rollecate-look medium tuning table 316: the track cards' rails and sleepers cast many
    of the strongest vote peaks inside the cards found, and four loose cards on the checked
    cloth ranked below every peak examined (no outline lay on them)."""
    deck = styled_deck("rollecate", 1)
    frame, truth = render_spread(deck, 316, "medium")
    to_table = np.linalg.inv(truth.table_to_image)
    outlines = OutlineFinder(deck.card_mm).find(frame, to_table, 0.6)
    for seen in truth.cards:
        if seen.zone.startswith("loose") and not seen.occluded:
            centre = transform_points(to_table, seen.corners).mean(axis=0)
            nearest = min(float(np.hypot(*(np.array(o.centre) - centre))) for o in outlines)
            assert nearest < 4, (seen.name, nearest)


@pytest.mark.parametrize("seed", [2200, 2201, 2202])
def test_a_line_of_rollecate_track_cards_is_found_where_its_cards_lie_not_a_rail_off(
        seed: int) -> None:
    """Rollecate's track cards touching in a line: their rails repeat card after card, so an
    outline a rail's spacing off fits the edges as well as the true one. The line is placed
    whole from where its long sides end, and its cards named there."""
    deck = styled_deck("rollecate", 1)
    rng = np.random.default_rng(seed)
    width = deck.card_mm[0]
    start = rng.uniform((200, 250), (330, 450))
    turn = float(rng.uniform(-20, 20))
    step = np.array([np.cos(np.radians(turn)), np.sin(np.radians(turn))]) * (width + 0.5)
    names = [f"rollecate/track-{1 + index % 4}" for index in rng.permutation(6)]
    laid = [LaidCard(name, Placement(tuple(start + index * step), turn))
            for index, name in enumerate(names)]
    frame, _ = photograph(lay_table(laid, Look.draw(seed, difficulty("easy")), faces=deck), 0,
                          hands=0)
    cards = [card for card in DeckReader(_references(deck)).read(frame, _homography(frame))
             if card.table_corners is not None]
    centres = [np.array(card.placement.centre) for card in laid]
    found = 0
    for card in cards:
        assert card.table_corners is not None
        offsets = [float(np.hypot(*(card.table_corners.mean(axis=0) - centre)))
                   for centre in centres]
        nearest = int(np.argmin(offsets))
        # Every card read lies on a laid card, none a rail's spacing off; a name is right.
        assert offsets[nearest] < 4, (seed, card.table_corners.mean(axis=0))
        assert card.reading.name in (None, laid[nearest].name), (seed, card.reading.name)
        found += 1
    assert found >= 5, seed
    assert sum(seen.reading.name is not None for seen in cards) >= 2, seed


BROWN_END = ("broken-1", "broken-3", "chaos-2", "track-4", "chaos-5", "broken-2")
"""A line of Rollecate's cards with a broken track at either end."""
BROWN_RUN = ("broken-1", "broken-3", "broken-4", "chaos-2", "broken-2", "track-4")
"""...with three broken tracks in a row at one end."""


@pytest.mark.parametrize(("seed", "names", "least"), [(2333, BROWN_END, 5),
                                                      (2336, BROWN_END, 5),
                                                      (2336, BROWN_RUN, 6)])
def test_a_line_whose_end_cards_are_the_cloths_colour_is_placed_from_the_cards_found_on_it(
        seed: int, names: tuple[str, ...], least: int) -> None:
    """Rollecate's broken track cards, brown on the brown wood cloth, at one end of a line of
    touching cards: the line's long sides stop inside them, so its length holds no whole
    number of cards (or is cut a rail off). Placed a pitch apart from each card found on it,
    and every placing named, the line's cards are read where they lie. (Before, 2 and 4 of
    the first 6 were.) Three broken tracks in a row hardly show a side: each is placed a
    pitch beside the card named next to it (before, 3 of those 6 were read)."""
    deck = styled_deck("rollecate", 1)
    look = Look.draw(seed, difficulty("easy"))
    assert look.cloth == 1, seed  # wood
    rng = np.random.default_rng(seed)
    start = rng.uniform((200, 250), (330, 450))
    turn = float(rng.uniform(-20, 20))
    step = np.array([np.cos(np.radians(turn)), np.sin(np.radians(turn))]) * (deck.card_mm[0]
                                                                            + 0.5)
    laid = [LaidCard(f"rollecate/{name}", Placement(tuple(start + index * step), turn))
            for index, name in enumerate(names)]
    frame, _ = photograph(lay_table(laid, look, faces=deck), 0, hands=0)
    cards = DeckReader(_references(deck)).read(frame, _homography(frame))
    found = 0
    for card in laid:
        on_it = [seen for seen in cards if seen.table_corners is not None and np.hypot(
            *(seen.table_corners.mean(axis=0) - card.placement.centre)) < 4]
        found += bool(on_it)
        assert all(seen.reading.name in (None, card.name) for seen in on_it), seed
    # Every name read is a card laid, where it lies.
    assert all(any(seen.reading.name == card.name and np.hypot(
        *(seen.table_corners.mean(axis=0) - card.placement.centre)) < 4 for card in laid)
        for seen in cards if seen.reading.name is not None and seen.table_corners is not None)
    assert found >= least, (seed, found)


def test_cards_the_colour_of_the_cloth_are_found_once_the_empty_table_was_seen() -> None:
    """Rollecate's broken track cards, brown on the brown wood cloth, show little of their
    outline; where the frame differs from the empty table (looked at once, in another
    frame), they do. (Without it, 16 of these 40 were found when this was written.)"""
    deck = styled_deck("rollecate", 1)
    laid = [LaidCard(f"rollecate/broken-{1 + index % 4}",
                     Placement((180.0 + 180 * (index % 4), 200.0 + 260 * (index // 4)),
                               23.0 + 37 * index)) for index in range(8)]
    found = {}
    for seed in (2204, 2206, 2212, 2214, 2215):
        look = Look.draw(seed, difficulty("easy"))
        assert look.cloth == 1, seed  # wood
        frame, _ = photograph(lay_table(laid, look, faces=deck), 0, hands=0)
        empty, _ = photograph(lay_table([], look, faces=deck), 1, hands=0)
        finder = OutlineFinder(deck.card_mm)
        finder.learn_cloth(empty, _homography(empty))
        outlines = finder.find(frame, _homography(frame), 0.6)
        found[seed] = sum(min((np.hypot(*(np.array(o.centre) - card.placement.centre))
                               for o in outlines), default=np.inf) < 4 for card in laid)
    assert sum(found.values()) >= 28, found


def test_dark_cards_on_a_dark_cloth_are_found_faint_and_kept_where_named() -> None:
    """The same broken track cards with no empty table seen: most of their sides show at
    ``FAINT_STRENGTH`` but under ``EDGE_STRENGTH``, so their outlines are faint (kept only
    where named: a caller that names no outline gets none of them), and the reader names
    them, none wrongly. (When faint outlines came in, 16 of these 40 were found before and 30
    after.)"""
    deck = styled_deck("rollecate", 1)
    references = _references(deck)
    laid = [LaidCard(f"rollecate/broken-{1 + index % 4}",
                     Placement((180.0 + 180 * (index % 4), 200.0 + 260 * (index // 4)),
                               23.0 + 37 * index)) for index in range(8)]
    found, faint, named = 0, 0, 0
    for seed in (2204, 2206, 2212, 2214, 2215):
        frame, _ = photograph(lay_table(laid, Look.draw(seed, difficulty("easy")), faces=deck),
                              0, hands=0)
        to_table = _homography(frame)
        outlines = OutlineFinder(deck.card_mm).find(frame, to_table, 0.6, rivals=True)
        for card in laid:
            near = [o for o in outlines
                    if np.hypot(*(np.array(o.centre) - card.placement.centre)) < 4]
            found += bool(near)
            faint += any(o.guess for o in near)
        for seen in DeckReader(references).read(frame, to_table):
            name, corners = seen.reading.name, seen.table_corners
            if name is None or corners is None:
                continue
            centre = corners.mean(axis=0)
            truth = min(laid, key=lambda card: np.hypot(*(centre - card.placement.centre)))
            assert np.hypot(*(centre - truth.placement.centre)) < 4, (seed, name, centre)
            assert name == truth.name, (seed, name, truth.name)
            named += 1
    assert found >= 26 and faint >= 8, (found, faint)
    assert named >= 24, named
    assert not any(outline.guess for outline in OutlineFinder(deck.card_mm).find(
        frame, to_table, 0.6))


def test_refining_starts_that_all_fall_away_finds_nothing() -> None:
    """Every start dropped for too little support (a bare cloth in a window round a change)
    gives no pose rather than an error from an empty remap."""
    finder = OutlineFinder((63.0, 88.0))
    gradient = _Gradient(np.zeros((200, 200, 2), np.float32))
    poses = finder._refine(gradient, np.array([[100.0, 100.0], [60.0, 90.0]]),
                           np.array([0.0, 30.0]), REFINE_STEPS, EARLY_SUPPORT)
    assert len(poses.centres) == 0 and len(poses.support) == 0
    # A whole search of a bare cloth: no pose to judge faint either.
    frame, _ = photograph(lay_table([], Look.draw(2204, difficulty("easy"))), 0, hands=0)
    assert finder.find(frame, _homography(frame), rivals=True) == []


def test_an_outline_off_a_loose_card_is_moved_onto_the_cards_own_rim() -> None:
    """White-bordered tuning table 312 (easy): the picture's edge and the cloth beyond it held
    a card-sized outline 12 mm off a loose card (``fern-2``), its vote peak too far off for
    the refinement, and no outline lay on the card: a ghost beside an unnamed card. The
    card's own rim, a shift along its length away, fits the edges better."""
    deck = styled_deck("bordered", 1)
    frame, truth = render_spread(deck, 312, "easy")
    to_table = np.linalg.inv(truth.table_to_image)
    card = next(seen for seen in truth.cards if seen.name == "bordered-1/fern-2")
    centre = transform_points(to_table, card.corners).mean(axis=0)
    outlines = OutlineFinder(deck.card_mm).find(frame, to_table, 0.6, rivals=True)
    nearest = min(float(np.hypot(*(np.array(o.centre) - centre))) for o in outlines)
    assert nearest < 4, nearest


def _poses_of(finder: OutlineFinder, gradient: _Gradient, laid: list[LaidCard],
              shift_mm: float = 0.0) -> _Poses:
    """The laid cards' poses in the top-down view (the first shifted along its length), with
    their support on ``gradient``."""
    scale = TOPDOWN_PX_PER_MM
    centres = np.array([card.placement.centre for card in laid]) * scale + np.array(
        finder.table_to_view[:2, 2])
    turns = np.array([card.placement.degrees for card in laid])
    radians = np.radians(turns[0])
    centres[0] += shift_mm * scale * np.array([-np.sin(radians), np.cos(radians)])
    _, support, sides = finder._score(gradient, centres, turns)
    return _Poses(centres, turns, support, sides, np.arange(len(laid)))


def test_a_pose_kept_moves_to_its_own_rim_but_never_onto_a_card_found_beside_it() -> None:
    """A loose card's pose started 25 mm off along its length (the picture's edge and the
    cloth) is moved onto the card; the true poses of cards touching end to end and of a
    pile's two cards stay where they are, though a shift along either's axes reaches the
    other card (its rim fits as well: the move would lose the card moved)."""
    deck = styled_deck("bordered", 1)
    names = [card.id for card in deck.deck.cards]
    length = deck.card_mm[1]
    laid = [LaidCard(names[0], Placement((180.0, 350.0), 12.0)),
            LaidCard(names[1], Placement((380.0, 250.0), 0.0)),
            LaidCard(names[2], Placement((380.0, 250.0 + length + 0.5), 0.0)),
            LaidCard(names[3], Placement((580.0, 300.0), 90.0)),
            LaidCard(names[4], Placement((580.0, 330.0), 90.0))]
    frame, truth = photograph(lay_table(laid, Look.draw(7, difficulty("easy")), faces=deck), 0,
                              hands=0)
    finder = OutlineFinder(deck.card_mm)
    to_table = np.linalg.inv(truth.table_to_image)
    view = finder.view(frame, to_table)
    gradient = _Gradient(np.asarray(cv2.merge(list(_colour_gradient(view))), np.float32))
    start = _poses_of(finder, gradient, laid, 25.0)
    moved = finder._own_rims(gradient, start)
    true = _poses_of(finder, gradient, laid)
    offsets = np.hypot(*(moved.centres - true.centres).T) / TOPDOWN_PX_PER_MM
    assert offsets[0] < 3, offsets
    assert np.all(offsets[1:] < 1.5), offsets
